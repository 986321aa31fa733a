/**
 * README: the native Streamable HTTP server inside an existing app (regions `mount-node`,
 * `mount-fetch`). test/examples.test.ts runs both.
 */
// #region mount-node
import { createServer } from 'node:http';
import type { Layer } from '@cloudg/core';
import { createMcpRequestHandler } from '@cloudg/transports';
// #endregion mount-node

export function appWithMcp(layer: Layer<unknown>) {
  // #region mount-node
  const mcp = createMcpRequestHandler(layer, { authTokens: ['s3cret:analyst:alice'] });
  // The app's own server and routes; /mcp (and /healthz, /readyz) are served by cloudg on the same port.
  const app = createServer((req, res) => {
    mcp(req, res, () => {
      if (req.url === '/hello') return res.end('hello from the app');
      res.writeHead(404).end();
    });
  });
  // app.listen(8080); with Express: app.use(mcp)
  // #endregion mount-node
  return { app, mcp };
}

export function fetchHandler(layer: Layer<unknown>): (request: Request) => Promise<Response> {
  // #region mount-fetch
  const mcp = createMcpRequestHandler(layer, { authTokens: ['s3cret:analyst:alice'] });
  // Hono: app.all('/mcp', (c) => mcp.fetch(c.req.raw)); workers and Bun: export default { fetch: ... }
  const fetchMcp = (request: Request) => mcp.fetch(request);
  // #endregion mount-fetch
  return fetchMcp;
}
