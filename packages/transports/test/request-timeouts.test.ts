/** Slow or unfinished requests cannot hold connections: 408 after the header and request limits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { rawBody, rawExchange } from './support/raw-socket.js';
import { buildLayer } from './support/test-layer.js';

let server: RunningHttpServer;

beforeAll(async () => {
  server = await serveHttp(buildLayer(), { port: 0, headersTimeoutMs: 300, requestTimeoutMs: 600 });
});
afterAll(() => server.close());

describe('request time limits', () => {
  it('closes a connection whose headers never finish with 408', async () => {
    const exchange = await rawExchange(server.port, ['POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n'], {
      waitMs: 5000,
    });
    expect(exchange.status).toBe(408);
    expect(rawBody(exchange.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Request timeout' },
    });
    expect(exchange.closed).toBe(true);
  });

  it('closes a request whose body is shorter than its Content-Length with 408', async () => {
    const exchange = await rawExchange(
      server.port,
      [
        'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          'Accept: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":',
      ],
      { waitMs: 5000 },
    );
    expect(exchange.status).toBe(408);
    expect(exchange.closed).toBe(true);
  });

  it('still answers a request that completes in time', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const exchange = await rawExchange(server.port, [
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n` +
        `Connection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ]);
    expect(exchange.status).toBe(400);
    // A handshake-era request without a session: the answer is the session check, not a timeout.
    expect(exchange.text).toContain('Mcp-Session-Id');
  });

  it('0 turns both limits off: an unfinished request is left waiting', async () => {
    const unlimited = await serveHttp(buildLayer(), { port: 0, headersTimeoutMs: 0, requestTimeoutMs: 0 });
    try {
      const exchange = await rawExchange(
        unlimited.port,
        [
          'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
        ],
        { waitMs: 1200 },
      );
      expect(exchange).toMatchObject({ status: 0, closed: false });
    } finally {
      await unlimited.close();
    }
  });
});
