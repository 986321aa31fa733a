/**
 * What the SDK tells a request handler about its caller, as a `RequestInfo` for a principal
 * resolver (MCP.md 8.8): the HTTP request's headers, the session id, the OAuth token the host
 * validated, a principal the host's own auth put on the token, and the client's `clientInfo`.
 */
import { Principal } from '@cloudg/core';
import { RequestInfo } from '@cloudg/transports';
import type { AuthInfo, Server, ServerContext } from '@modelcontextprotocol/server';

/**
 * The key under `AuthInfo.extra` where a host's auth middleware may leave a cloudg `Principal`
 * (the SDK's counterpart of the reference's `scope["cloudg.principal"]`).
 */
export const PRINCIPAL_AUTH_KEY = 'cloudg.principal';

function headersOf(request: Request | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  request?.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** The same, for an HTTP request seen before the SDK (no server context yet). */
export function requestInfoFromHttp(request: Request, auth: AuthInfo | undefined): RequestInfo {
  const stored = auth?.extra?.[PRINCIPAL_AUTH_KEY];
  return new RequestInfo({
    transport: 'http',
    headers: headersOf(request),
    ...(request.headers.get('mcp-session-id')
      ? { sessionId: request.headers.get('mcp-session-id') as string }
      : {}),
    ...(auth ? { accessToken: { clientId: auth.clientId, scopes: [...auth.scopes] } } : {}),
    ...(stored instanceof Principal ? { principal: stored } : {}),
    raw: request,
  });
}

export function requestInfoFrom(server: Server, ctx: ServerContext): RequestInfo {
  const http = ctx.http;
  const auth = http?.authInfo;
  const stored = auth?.extra?.[PRINCIPAL_AUTH_KEY];
  const clientInfo = server.getClientVersion();
  return new RequestInfo({
    // No HTTP request means a stream transport the host chose (stdio, in memory): the local user.
    transport: http ? 'http' : 'stdio',
    headers: headersOf(http?.req),
    ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}),
    ...(clientInfo ? { clientInfo: { ...clientInfo } } : {}),
    ...(auth ? { accessToken: { clientId: auth.clientId, scopes: [...auth.scopes] } } : {}),
    ...(stored instanceof Principal ? { principal: stored } : {}),
    raw: ctx,
  });
}
