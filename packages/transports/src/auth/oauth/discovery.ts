/**
 * The authorization server's metadata: OpenID Connect discovery first (what every listed
 * provider serves), then RFC 8414. The document must name exactly the configured issuer
 * (RFC 8414 section 3.3), or a look-alike server could supply its own keys.
 */
import { AuthorizationServerError, fetchJson } from './fetch-json.js';

export interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
}

/** The well-known URLs to try for an issuer, in order. */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const urls = [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
  ];
  if (path) urls.push(`${url.origin}/.well-known/openid-configuration${path}`);
  return urls;
}

export async function discoverIssuer(issuer: string, timeoutMs: number): Promise<IssuerMetadata> {
  const failures: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    let document: Record<string, unknown>;
    try {
      document = await fetchJson(url, { timeoutMs });
    } catch (error) {
      failures.push((error as Error).message);
      continue;
    }
    if (document.issuer !== issuer) {
      throw new AuthorizationServerError(
        `${url} names issuer ${JSON.stringify(document.issuer)}, not the configured ${issuer}`,
      );
    }
    const metadata: IssuerMetadata = { issuer };
    if (typeof document.jwks_uri === 'string') metadata.jwks_uri = document.jwks_uri;
    if (typeof document.introspection_endpoint === 'string')
      metadata.introspection_endpoint = document.introspection_endpoint;
    return metadata;
  }
  throw new AuthorizationServerError(`No metadata for issuer ${issuer} (${failures.join('; ')})`);
}
