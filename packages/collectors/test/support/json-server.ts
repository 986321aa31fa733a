/**
 * The HTTP server under the cloud stand-ins (ARM, the Google REST APIs): routes by path (no
 * query) to hand-written JSON replies, a function route for replies that depend on the request
 * (a page token, a call counter), and the cloud's own 404 envelope for anything else. Listens on
 * 127.0.0.1 only, on a free port.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}
export type JsonRoutes = Record<string, JsonReply | ((req: IncomingMessage, url: URL) => JsonReply)>;

export interface JsonServer {
  port: number;
  /** What was requested, in order: `prefix(req) + path + query`. */
  requests: string[];
  close(): Promise<void>;
}

export async function startJsonServer(
  routes: JsonRoutes,
  options: { notFound: (path: string) => unknown; label?: (req: IncomingMessage) => string },
): Promise<JsonServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${options.label?.(req) ?? ''}${url.pathname}${url.search}`);
    const route = routes[url.pathname];
    const reply: JsonReply = route
      ? typeof route === 'function'
        ? route(req, url)
        : route
      : { status: 404, body: options.notFound(url.pathname) };
    // Read the request to its end before answering, so a client still sending a body is not reset.
    req.resume();
    req.on('end', () => {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A reply route that answers `first` once (a 429, a 403) and then what `then` answers. */
export function once(
  first: JsonReply,
  then: JsonRoutes[string] | undefined,
  counter: { calls: number } = { calls: 0 },
): (req: IncomingMessage, url: URL) => JsonReply {
  return (req, url) => {
    counter.calls += 1;
    if (counter.calls === 1) return first;
    return typeof then === 'function' ? then(req, url) : (then ?? {});
  };
}
