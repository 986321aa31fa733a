/**
 * Opaque access tokens through token introspection (RFC 7662), authenticated as this server's
 * own client. An inactive answer (revoked, expired, unknown) refuses the token; so does one bound
 * to another audience or issued by another issuer.
 */
import { BearerTokenError, IssuerUnavailableError } from './challenge.js';
import type { Claims } from './claims.js';
import { fetchJson } from './fetch-json.js';

export interface IntrospectorOptions {
  url: string;
  clientId: string;
  clientSecret: string;
  issuer: string;
  audiences: readonly string[];
  clockToleranceSec: number;
  timeoutMs: number;
}

/** RFC 6749 section 2.3.1: each part form-encoded before Basic encoding. */
function basic(id: string, secret: string): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

export class Introspector {
  constructor(private readonly options: IntrospectorOptions) {}

  async introspect(token: string): Promise<Claims> {
    const { url, clientId, clientSecret, timeoutMs } = this.options;
    let answer: Claims;
    try {
      answer = await fetchJson(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(clientId, clientSecret),
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        timeoutMs,
      });
    } catch (error) {
      // The authorization server's trouble is not the caller's business (it goes to the log); a
      // token that cannot be checked is not accepted.
      throw new IssuerUnavailableError(error);
    }
    if (answer.active !== true) throw new BearerTokenError('invalid_token', 'The token is not active');
    this.check(answer);
    return answer;
  }

  private check(claims: Claims): void {
    const now = Date.now() / 1000;
    const leeway = this.options.clockToleranceSec;
    if (typeof claims.exp === 'number' && claims.exp + leeway <= now)
      throw new BearerTokenError('invalid_token', 'The token has expired');
    if (typeof claims.nbf === 'number' && claims.nbf - leeway > now)
      throw new BearerTokenError('invalid_token', 'The token is not valid yet');
    if (claims.iss !== undefined && claims.iss !== this.options.issuer)
      throw new BearerTokenError('invalid_token', 'The token was issued by another issuer');
    // RFC 7662 leaves `aud` optional; a token that names no audience could be anyone's, so it is
    // refused like one naming another audience (MCP forbids accepting tokens not issued for us).
    const audiences =
      typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    if (!audiences.some((aud) => this.options.audiences.includes(aud as string)))
      throw new BearerTokenError('invalid_token', 'The token was issued for another resource');
  }
}
