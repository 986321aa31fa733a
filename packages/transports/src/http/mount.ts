/**
 * The native Streamable HTTP server as a request handler inside someone else's HTTP app: the
 * app keeps its server, its port and its own routes; requests for the MCP endpoint (and the
 * health, readiness, metrics and legacy SSE paths when enabled) are served exactly as
 * `serveHttp` serves them, everything else goes on to the app (`next`) or gets a 404.
 *
 *   node:http   createServer((req, res) => handler(req, res))
 *   Express     app.use(handler)                          (next() for other paths)
 *   Fastify     the raw request and reply: handler(request.raw, reply.raw) after reply.hijack()
 *   Hono, Bun, Deno, workers: handler.fetch(request) with a Web-standard Request
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, type Layer } from '@cloudg/core';
import { McpHttpServer } from './http-server.js';
import type { HttpServerOptions } from './options.js';
import { sendRpcError } from './responses.js';
import { serveWebRequest } from './web-bridge.js';

/** Options of `serveHttp` that concern requests; `port` and listening belong to the app. */
export type MountOptions = Omit<HttpServerOptions, 'port'>;

export interface McpRequestHandler {
  /** `node:http` and Connect/Express style: paths that are not MCP's go to `next`, or get a 404. */
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** The Web-standard form (Hono, Fastify with a fetch adapter, workers): any path. */
  fetch(request: Request): Promise<Response>;
  /** Whether a path is served here (the MCP endpoint, health, readiness, metrics, legacy SSE). */
  owns(pathname: string): boolean;
  /** End listen streams and sessions; the app's server is the app's to close. */
  close(): Promise<void>;
  /** The server behind the handler (sessions, metrics, admission). */
  readonly server: McpHttpServer;
}

function pathnameOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

export function createMcpRequestHandler(
  layer: Layer<unknown>,
  options: MountOptions = {},
): McpRequestHandler {
  const server = new McpHttpServer(layer, options);
  server.startMounted();
  const paths = new Set([server.options.path, server.options.healthPath, server.options.readyPath]);
  if (server.metrics) paths.add(server.metrics.path);
  for (const path of server.oauthMetadataPaths) paths.add(path);
  if (server.options.legacySse) {
    paths.add(server.options.ssePath);
    paths.add(server.options.messagePath);
  }
  const owns = (pathname: string) => paths.has(pathname);
  const fail = (res: ServerResponse, error: unknown) => {
    layer.logger.error({ err: error }, 'HTTP request failed');
    if (!res.headersSent) sendRpcError(res, 500, 'Internal error', { code: ErrorCode.InternalError });
    else res.end();
  };

  const handler = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => {
    if (!owns(pathnameOf(req.url))) {
      if (next) return next();
      return sendRpcError(res, 404, 'Not Found');
    }
    server.metrics?.track(req, res);
    server.handle(req, res).catch((error: unknown) => fail(res, error));
  }) as McpRequestHandler;
  handler.fetch = (request: Request) => serveWebRequest(request, (req, res) => server.handle(req, res));
  handler.owns = owns;
  handler.close = () => server.close();
  Object.defineProperty(handler, 'server', { value: server, enumerable: true });
  return handler;
}
