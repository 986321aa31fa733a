/**
 * The native Streamable HTTP handler inside an app that already has a server and routes of its
 * own: mounted on `node:http` (sharing the app's port) and as a Web-standard `fetch` handler,
 * reached by the official client 2.4 in both eras. Other paths stay the app's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpRequestHandler, type McpRequestHandler } from '../src/index.js';
import { buildLayer } from './support/test-layer.js';

type Mode = 'auto' | 'legacy';
const ERA: Record<Mode, string> = { auto: '2026-07-28', legacy: '2025-11-25' };

let app: Server | undefined;
let handler: McpRequestHandler | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await handler?.close();
  await new Promise<void>((resolve) => (app ? app.close(() => resolve()) : resolve()));
  client = app = handler = undefined;
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function useClient(mode: Mode, url: string, fetchImpl?: typeof fetch): Promise<Client> {
  client = new Client({ name: 'mount-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: 'Bearer s3cret' } },
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    }),
  );
  return client;
}

async function exercise(c: Client): Promise<void> {
  expect((await c.listTools()).tools.map((t) => t.name)).toContain('echo');
  const echo = await c.callTool({ name: 'echo', arguments: { text: 'mounted' } });
  expect(echo.structuredContent).toEqual({ text: 'mounted' });
  const read = await c.readResource({ uri: 'test://items/alpha' });
  expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: 'alpha' });
  const prompt = await c.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
  expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello, Ada!' });
}

describe.each(['auto', 'legacy'] as const)('mounted handler, negotiation %s', (mode) => {
  it(`shares a node:http app's port with the app's own routes (${ERA[mode]})`, async () => {
    handler = createMcpRequestHandler(buildLayer(), { authTokens: ['s3cret:analyst:alice'] });
    const mcp = handler;
    app = createServer((req, res) => {
      mcp(req, res, () => {
        if (req.url === '/hello') return res.end('app says hello');
        res.writeHead(404).end('app 404');
      });
    });
    const base = await listen(app);
    const c = await useClient(mode, `${base}/mcp`);
    expect(c.getNegotiatedProtocolVersion()).toBe(ERA[mode]);
    await exercise(c);
    expect(await (await fetch(`${base}/hello`)).text()).toBe('app says hello');
    const other = await fetch(`${base}/elsewhere`);
    expect([other.status, await other.text()]).toEqual([404, 'app 404']);
    // The endpoint keeps the native server's rules: no token, 401.
    const anonymous = await fetch(`${base}/mcp`, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it(`answers Web-standard Requests with Responses (${ERA[mode]})`, async () => {
    handler = createMcpRequestHandler(buildLayer(), { authTokens: ['s3cret:analyst:alice'] });
    const mcp = handler;
    const viaFetchHandler: typeof fetch = (input, init) => mcp.fetch(new Request(input, init));
    const c = await useClient(mode, 'http://127.0.0.1/mcp', viaFetchHandler);
    expect(c.getNegotiatedProtocolVersion()).toBe(ERA[mode]);
    await exercise(c);
    const denied = await mcp.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}' }));
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toBe('Bearer realm="cloudg-mcp"');
  });
});

it('a plain node:http handler without next answers 404 for paths that are not its own', async () => {
  handler = createMcpRequestHandler(buildLayer());
  app = createServer(handler);
  const base = await listen(app);
  expect((await fetch(`${base}/nothing-here`)).status).toBe(404);
  expect(handler.owns('/mcp')).toBe(true);
  expect(handler.owns('/nothing-here')).toBe(false);
});
