/**
 * Protected resource metadata (RFC 9728): the document and where it is served. The well-known
 * path is inserted before the resource's own path (`/.well-known/oauth-protected-resource/mcp`),
 * and the root form is served too, since MCP clients try both (MCP authorization, discovery).
 */

export const WELL_KNOWN_PREFIX = '/.well-known/oauth-protected-resource';

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: string[];
  scopes_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
}

/** The metadata URL for a resource indicator: the well-known prefix inserted after the origin. */
export function metadataUrlFor(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}${WELL_KNOWN_PREFIX}${path}`;
}

/** The paths this server answers the metadata on: the resource's, the endpoint's and the root. */
export function metadataPaths(resource: string, endpointPath: string): Set<string> {
  const own = new URL(metadataUrlFor(resource)).pathname;
  const endpoint = endpointPath === '/' ? '' : endpointPath.replace(/\/$/, '');
  return new Set([own, `${WELL_KNOWN_PREFIX}${endpoint}`, WELL_KNOWN_PREFIX]);
}
