/**
 * JWT access tokens (RFC 9068) checked against the issuer's key set with `jose`: signature,
 * issuer, audience, expiry and not-before. The remote key set is cached and fetched again when a
 * token names a key it does not hold, which is how a rotation at the issuer is picked up.
 */
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { BearerTokenError, IssuerUnavailableError } from './challenge.js';

export interface JwtVerifierOptions {
  issuer: string;
  audiences: readonly string[];
  algorithms: readonly string[];
  clockToleranceSec: number;
  cooldownMs: number;
  maxAgeMs: number;
  timeoutMs: number;
}

/** Whether a token has the shape of a JWS (three base64url parts): opaque tokens go to introspection. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

export class JwtVerifier {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    jwksUri: string,
    private readonly options: JwtVerifierOptions,
  ) {
    this.keys = createRemoteJWKSet(new URL(jwksUri), {
      cooldownDuration: options.cooldownMs,
      cacheMaxAge: options.maxAgeMs,
      timeoutDuration: options.timeoutMs,
    });
  }

  async verify(token: string): Promise<JWTPayload> {
    let verified: Awaited<ReturnType<typeof jwtVerify>>;
    try {
      verified = await jwtVerify(token, this.keys, {
        issuer: this.options.issuer,
        audience: [...this.options.audiences],
        algorithms: [...this.options.algorithms],
        clockTolerance: this.options.clockToleranceSec,
        requiredClaims: ['exp'],
      });
    } catch (error) {
      // Keys that could not be fetched say nothing about the token: the reason goes to the log.
      if (
        error instanceof errors.JWKSTimeout ||
        error instanceof errors.JWKSInvalid ||
        !(error instanceof errors.JOSEError)
      )
        throw new IssuerUnavailableError(error);
      throw new BearerTokenError('invalid_token', describe(error));
    }
    if (!isAccessToken(verified.protectedHeader.typ, verified.payload))
      throw new BearerTokenError('invalid_token', 'The token is an ID token, not an access token');
    return verified.payload;
  }
}

/**
 * RFC 9068 asks for `typ: at+jwt`, but Entra ID, Okta and Auth0 label their access tokens `JWT`,
 * so that label is accepted too. What must never pass is an ID token whose audience happens to be
 * accepted (an operator listing a client id with `audiences`): it is recognised by another `typ`
 * or by the claims only ID tokens carry.
 */
function isAccessToken(typ: string | undefined, payload: JWTPayload): boolean {
  const type = typ?.toLowerCase();
  if (type !== undefined && type !== 'at+jwt' && type !== 'application/at+jwt' && type !== 'jwt')
    return false;
  if (type === 'at+jwt' || type === 'application/at+jwt') return true;
  return !('nonce' in payload || 'at_hash' in payload || 'c_hash' in payload);
}

/** What the client is told: which check failed, never the token or the key material. */
function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return 'The token was issued by another issuer';
      case 'aud':
        return 'The token was issued for another resource';
      case 'nbf':
        return 'The token is not valid yet';
      case 'exp':
        return 'The token has no expiry';
      default:
        return `The token's ${error.claim} claim is not valid`;
    }
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'The token is signed with a key the issuer does not publish';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The token signature is not valid';
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'The token is signed with an algorithm not accepted here';
  return 'The token is not valid';
}
