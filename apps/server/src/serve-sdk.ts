/**
 * `cloudg-mcp serve --flavor sdk`: the official SDK on the wire, cloudg's checks in front of it.
 * stdio is the SDK's `serveStdio` (both eras). HTTP is the SDK's Web-standard handler (stateless
 * handshake era and 2026-07-28) behind the same Origin/Host guard and bearer tokens as the native
 * server; a token's principal reaches the adapter through `AuthInfo.extra`. What the SDK flavor
 * does not have (paging, CORS, `/healthz`, `/readyz`, `/metrics`, legacy SSE) is refused or said
 * at start-up (MCP.md 7).
 */
import { createWriteStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, type Layer, Principal } from '@cloudg/core';
import { OriginHostGuard, type TokenAuth } from '@cloudg/transports';

export interface SdkServeOptions {
  transport: 'stdio' | 'http';
  host: string;
  port: number;
  path: string;
  auth?: TokenAuth;
  allowedOrigins?: readonly string[];
  allowedHosts?: readonly string[];
  jsonResponse?: boolean;
  /** stdio: the descriptor protocol messages go to (an isolated relaunch); stdout by default. */
  stdoutFd?: number;
  stop: AbortSignal;
  /** Called with the bound address once listening (HTTP). */
  onListening?: (address: { host: string; port: number }) => void;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function rpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: { code: ErrorCode.InvalidRequest, message },
  });
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(body);
}

const stopped = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

async function serveSdkStdio<TApp>(layer: Layer<TApp>, stop: AbortSignal, stdoutFd?: number): Promise<void> {
  const [{ serveStdio, StdioServerTransport }, { createSdkServer, restoringListenFilters }] =
    await Promise.all([import('@modelcontextprotocol/server/stdio'), import('@cloudg/adapters/sdk')]);
  // One server for the connection: the handshake era keeps its session (subscriptions, log level).
  const server = createSdkServer(layer);
  // Isolated (see stdio-isolation.ts): protocol messages go to the handed-over descriptor, never 1.
  const stdio =
    stdoutFd === undefined
      ? new StdioServerTransport()
      : new StdioServerTransport(process.stdin, createWriteStream('', { fd: stdoutFd }));
  // 2026 listen filters naming pseudonymised URIs match the layer's real ones (the local user).
  const transport = restoringListenFilters(layer, stdio, () => Principal.local());
  const handle = serveStdio(() => server, { transport });
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await Promise.race([ended, stopped(stop)]);
  await handle.close();
}

async function serveSdkHttp<TApp>(layer: Layer<TApp>, options: SdkServeOptions): Promise<void> {
  const [{ createSdkHttpHandler, PRINCIPAL_AUTH_KEY }, { toNodeHandler }] = await Promise.all([
    import('@cloudg/adapters/sdk'),
    import('@modelcontextprotocol/node'),
  ]);
  const sdk = createSdkHttpHandler(layer, options.jsonResponse ? { responseMode: 'json' } : {});
  const handle = toNodeHandler(sdk);
  const guard = new OriginHostGuard({
    bindHost: options.host,
    ...(options.allowedOrigins?.length ? { allowedOrigins: [...options.allowedOrigins] } : {}),
    ...(options.allowedHosts?.length ? { allowedHosts: [...options.allowedHosts] } : {}),
  });
  const { auth } = options;
  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== options.path) return rpcError(res, 404, 'Not Found');
    const rejection = guard.check(header(req, 'host'), header(req, 'origin'));
    if (rejection) return rpcError(res, rejection.status, rejection.message);
    const authorization = header(req, 'authorization');
    const principal = auth?.authenticate(authorization);
    if (auth?.required && !principal) {
      return rpcError(res, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer realm="cloudg-mcp"' });
    }
    const request = req as IncomingMessage & { auth?: import('@modelcontextprotocol/server').AuthInfo };
    if (principal) {
      request.auth = {
        token: authorization?.replace(/^Bearer\s+/i, '') ?? '',
        clientId: principal.id,
        scopes: [],
        extra: { [PRINCIPAL_AUTH_KEY]: principal },
      };
    }
    handle(request, res).catch((error: unknown) => {
      layer.logger.error({ err: error }, 'HTTP request failed');
      if (!res.headersSent) rpcError(res, 500, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  options.onListening?.({ host: address.address, port: address.port });
  await stopped(options.stop);
  await sdk.close();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
}

export function serveSdk<TApp>(layer: Layer<TApp>, options: SdkServeOptions): Promise<void> {
  return options.transport === 'stdio'
    ? serveSdkStdio(layer, options.stop, options.stdoutFd)
    : serveSdkHttp(layer, options);
}
