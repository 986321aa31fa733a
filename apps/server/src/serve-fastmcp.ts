/**
 * `cloudg-mcp serve --flavor fastmcp`: a server of the npm `fastmcp` framework (4.x) with the layer
 * registered (@cloudg/adapters/fastmcp). fastmcp runs on the 1.x MCP SDK, so this flavor speaks
 * the handshake era (2025-11-25) only; 2026-07-28 requests get -32022.
 *
 * stdio: one fastmcp session on the process's stdio (`FastMCP.connect`, through which cloudg's
 * handlers are in place before the first request after the handshake). HTTP: fastmcp's own HTTP
 * stream server (stateful sessions), with cloudg's Origin/Host guard and bearer tokens in its
 * `authenticate` hook, which fastmcp runs before anything else on every request to the endpoint;
 * a token's principal becomes the session's fastmcp auth. fastmcp is an optional peer dependency:
 * it is loaded only for this flavor.
 */
import { createWriteStream } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, type Layer } from '@cloudg/core';
import { OriginHostGuard, type TokenAuth } from '@cloudg/transports';
import { ServeOptionsError } from './flavors.js';

export interface FastmcpServeOptions {
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
  onListening?: (address: { host: string; port: number }) => void;
}

const stopped = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A refusal fastmcp's HTTP stream passes through verbatim (a thrown `Response`). */
function refusal(status: number, message: string, headers: Record<string, string> = {}): Response {
  const body = { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

async function loadAdapter() {
  try {
    return await import('@cloudg/adapters/fastmcp');
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND';
    if (!missing) throw error;
    throw new ServeOptionsError(
      '--flavor fastmcp needs the fastmcp package (4.x) installed beside cloudg: npm install fastmcp@4',
    );
  }
}

/** A free port on `host`: fastmcp's HTTP stream does not report the port it bound. */
async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, () => resolve());
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function serveFastmcpStdio<TApp>(layer: Layer<TApp>, stop: AbortSignal, stdoutFd?: number) {
  const [{ createFastMCPServer }, { StdioServerTransport }] = await Promise.all([
    loadAdapter(),
    import('@modelcontextprotocol/server/stdio'),
  ]);
  const { server, binding } = createFastMCPServer(layer);
  // Isolated (see stdio-isolation.ts): protocol messages go to the handed-over descriptor, never 1.
  const transport =
    stdoutFd === undefined
      ? new StdioServerTransport()
      : new StdioServerTransport(process.stdin, createWriteStream('', { fd: stdoutFd }));
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  // The SDK 2.x stdio transport speaks the same newline-delimited JSON-RPC as fastmcp's 1.x one.
  const session = await server.connect(transport as never);
  await Promise.race([ended, stopped(stop)]);
  binding.dispose();
  await session.close();
}

async function serveFastmcpHttp<TApp>(layer: Layer<TApp>, options: FastmcpServeOptions) {
  const { createFastMCPServer, PRINCIPAL_AUTH_KEY } = await loadAdapter();
  const guard = new OriginHostGuard({
    bindHost: options.host,
    ...(options.allowedOrigins?.length ? { allowedOrigins: [...options.allowedOrigins] } : {}),
    ...(options.allowedHosts?.length ? { allowedHosts: [...options.allowedHosts] } : {}),
  });
  const { auth } = options;
  const { server, binding } = createFastMCPServer(layer, {
    authenticate: (request) => {
      const rejection = guard.check(header(request, 'host'), header(request, 'origin'));
      if (rejection) throw refusal(rejection.status, rejection.message);
      const principal = auth?.authenticate(header(request, 'authorization'));
      if (auth?.required && !principal) {
        throw refusal(401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer realm="cloudg-mcp"' });
      }
      return principal ? { [PRINCIPAL_AUTH_KEY]: principal } : {};
    },
  });
  // fastmcp also reads FASTMCP_* variables and its own argv options for what is not passed here;
  // stateless mode would serve sessions without cloudg (see flavors.ts), so it is refused.
  if (process.env.FASTMCP_STATELESS === 'true') {
    throw new ServeOptionsError(
      'FASTMCP_STATELESS=true is not supported by the fastmcp flavor: fastmcp does not announce stateless sessions',
    );
  }
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  await server.start({
    transportType: 'httpStream',
    httpStream: {
      host: options.host,
      port,
      endpoint: options.path as `/${string}`,
      // Explicit, so FASTMCP_BASE_PATH or a --base-path in argv cannot move the endpoint.
      basePath: '/',
      // No CORS headers: fastmcp's default grants every origin, and CORS is the native flavor's.
      cors: false,
      stateless: false,
      ...(options.jsonResponse ? { enableJsonResponse: true } : {}),
    },
  });
  options.onListening?.({ host: options.host, port });
  await stopped(options.stop);
  binding.dispose();
  await server.stop();
}

export function serveFastmcp<TApp>(layer: Layer<TApp>, options: FastmcpServeOptions): Promise<void> {
  return options.transport === 'stdio'
    ? serveFastmcpStdio(layer, options.stop, options.stdoutFd)
    : serveFastmcpHttp(layer, options);
}
