/** MCP.md 6.4 over HTTP against a real listening server: the 2026-07-28 envelope, headers and listen streams. */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MetaKeys, type RunningHttpServer, serveHttp } from '../src/index.js';
import { send } from './support/http.js';
import { ENVELOPE, modern } from './support/rpc.js';
import { buildLayer, buildRegistry, slowAborted } from './support/test-layer.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: Parameters<typeof serveHttp>[1] = {}) {
  running = await serveHttp(buildLayer(), { port: 0, authTokens: ['s3cret:analyst:alice'], ...options });
  return running.port;
}

const BASE = { authorization: 'Bearer s3cret', accept: 'application/json' };
function headersFor(method: string, name?: string) {
  const headers: Record<string, string> = {
    ...BASE,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}
const SERVER_INFO = { name: 'cloudg', version: '0.1.0', title: 'cloudg' };

describe('Streamable HTTP, 2026-07-28', () => {
  it('server/discover without the headers gets 400 -32020; with them the discover result', async () => {
    const port = await start();
    const bare = await send(port, { headers: BASE, body: modern(1, 'server/discover') });
    expect(bare.status).toBe(400);
    expect(bare.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32020,
        message: "MCP-Protocol-Version header does not match the request envelope's protocol version",
      },
    });
    const ok = await send(port, {
      headers: headersFor('server/discover'),
      body: modern(1, 'server/discover'),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toBeUndefined();
    expect(ok.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: {
        supportedVersions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
        capabilities: { tools: { listChanged: true }, logging: {}, completions: {} },
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { [MetaKeys.serverInfo]: SERVER_INFO },
      },
    });
  });

  it('tools/call needs Mcp-Name equal to the name (plain or base64), and then answers', async () => {
    const port = await start();
    const body = modern(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const missing = await send(port, { headers: headersFor('tools/call'), body });
    expect(missing.status).toBe(400);
    expect(missing.json()).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32020, message: "Mcp-Name header does not match the request body's 'name' parameter" },
    });
    const named = await send(port, { headers: headersFor('tools/call', 'echo'), body });
    expect(named.status).toBe(200);
    expect(named.json()).toMatchObject({
      id: 2,
      result: {
        structuredContent: { text: 'hi' },
        resultType: 'complete',
        _meta: { [MetaKeys.serverInfo]: SERVER_INFO },
      },
    });
    const encoded = await send(port, {
      headers: headersFor('tools/call', `=?base64?${Buffer.from('echo').toString('base64')}?=`),
      body,
    });
    expect(encoded.status).toBe(200);
    const read = modern(3, 'resources/read', { uri: 'test://items/omega' });
    const wrongUri = await send(port, {
      headers: headersFor('resources/read', 'test://items/alpha'),
      body: read,
    });
    expect(wrongUri.json()).toMatchObject({
      error: { code: -32020, message: "Mcp-Name header does not match the request body's 'uri' parameter" },
    });
    const notFound = await send(port, {
      headers: headersFor('resources/read', 'test://items/omega'),
      body: read,
    });
    expect(notFound.status).toBe(200);
    expect(notFound.json()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'No item omega', data: { uri: 'test://items/omega' } },
    });
  });

  it('Mcp-Param headers of x-mcp-header parameters must match the arguments (plain, base64, numeric)', async () => {
    const registry = buildRegistry();
    registry.tool({
      name: 'route',
      input: {
        region: z.string().meta({ 'x-mcp-header': 'Region' }),
        priority: z.number().int().meta({ 'x-mcp-header': 'Priority' }),
        note: z.string().optional().meta({ 'x-mcp-header': 'Note' }),
      },
      handler: (_ctx, args) => ({ region: args.region }),
    });
    running = await serveHttp(buildLayer({ registry }), { port: 0 });
    const port = running.port;
    const call = (
      headers: Record<string, string>,
      args: Record<string, unknown> = { region: 'us-west1', priority: 42 },
    ) =>
      send(port, {
        headers: { ...headersFor('tools/call', 'route'), ...headers },
        body: modern(20, 'tools/call', { name: 'route', arguments: args }),
      });
    const ok = await call({ 'mcp-param-region': 'us-west1', 'mcp-param-priority': '42.0' });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ result: { structuredContent: { region: 'us-west1' } } });
    const encoded = await call(
      {
        'mcp-param-region': `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`,
        'mcp-param-priority': '1',
      },
      { region: 'Hello, 世界', priority: 1 },
    );
    expect(encoded.status).toBe(200);
    const missing = await call({ 'mcp-param-region': 'us-west1' });
    expect(missing.status).toBe(400);
    expect(missing.json()).toEqual({
      jsonrpc: '2.0',
      id: 20,
      error: {
        code: -32020,
        message: "Mcp-Param-Priority header does not match the request body's 'priority' argument",
      },
    });
    const badPadding = await call(
      { 'mcp-param-region': '=?base64?SGVsbG8?=', 'mcp-param-priority': '42' },
      {
        region: 'Hello',
        priority: 42,
      },
    );
    expect(badPadding.json()).toMatchObject({ error: { code: -32020 } });
    // Without both markers the value is literal.
    const literal = await call(
      { 'mcp-param-region': '=?base64?SGVsbG8=', 'mcp-param-priority': '42' },
      {
        region: '=?base64?SGVsbG8=',
        priority: 42,
      },
    );
    expect(literal.status).toBe(200);
  });

  it('Mcp-Method must match the method', async () => {
    const port = await start();
    const res = await send(port, { headers: headersFor('tools/list'), body: modern(4, 'prompts/list') });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32020, message: "Mcp-Method header does not match the request body's method" },
    });
  });

  it('checks the envelope keys first (-32602), then headers, then the version (-32022)', async () => {
    const port = await start();
    const noCaps = {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/list',
      params: { _meta: { [MetaKeys.protocolVersion]: '2026-07-28' } },
    };
    // No headers at all: the envelope keys are still checked first.
    const res = await send(port, { headers: BASE, body: noCaps });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      id: 5,
      error: {
        code: -32602,
        message:
          'params._meta is missing the required envelope key(s): io.modelcontextprotocol/clientCapabilities',
      },
    });
    const future = modern(6, 'tools/list', {}, { [MetaKeys.protocolVersion]: '2027-01-01' });
    const unsupported = await send(port, {
      headers: { ...headersFor('tools/list'), 'mcp-protocol-version': '2027-01-01' },
      body: future,
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json()).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2027-01-01',
        data: { supported: ['2026-07-28'], requested: '2027-01-01' },
      },
    });
  });

  it('a request whose MCP-Protocol-Version says 2026-07-28 but has no envelope gets 400 -32602 with its id', async () => {
    const port = await start();
    const res = await send(port, {
      headers: headersFor('server/discover'),
      body: { jsonrpc: '2.0', id: 101, method: 'server/discover', params: {} },
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ id: 101, error: { code: -32602 } });
  });

  it('a notification POST gets 202 with an empty body', async () => {
    const port = await start();
    const res = await send(port, {
      headers: headersFor('notifications/cancelled'),
      body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: ENVELOPE } },
    });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  it('removed methods (initialize, logging/setLevel, resources/subscribe) get 404 with -32601', async () => {
    const port = await start();
    for (const method of ['initialize', 'logging/setLevel', 'resources/subscribe']) {
      const res = await send(port, { headers: headersFor(method), body: modern(500, method) });
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ id: 500, error: { code: -32601 } });
    }
  });

  it('ping is gone (404 with -32601); batches of envelope requests get 400', async () => {
    const port = await start();
    const ping = await send(port, { headers: headersFor('ping'), body: modern(7, 'ping') });
    expect(ping.status).toBe(404);
    expect(ping.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32601, message: 'Method not found', data: 'ping' },
    });
    const batch = await send(port, {
      headers: headersFor('tools/list'),
      body: [modern(8, 'tools/list'), modern(9, 'tools/list')],
    });
    expect(batch.status).toBe(400);
    expect(batch.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'JSON-RPC batches are not supported by protocol version 2026-07-28' },
    });
  });

  it('progress and logs reach the request stream when asked for', async () => {
    const port = await start();
    const res = await send(port, {
      headers: { ...headersFor('tools/call', 'noisy'), accept: 'application/json, text/event-stream' },
      body: modern(
        11,
        'tools/call',
        { name: 'noisy' },
        { progressToken: 'tok-1', [MetaKeys.logLevel]: 'error' },
      ),
    });
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.events()).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'error', logger: 'noisy', data: 'an error line' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok-1', progress: 1, total: 2, message: 'half' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok-1', progress: 2, total: 2, message: 'all' },
      },
      expect.objectContaining({ id: 11, result: expect.objectContaining({ resultType: 'complete' }) }),
    ]);
  });

  it('subscriptions/listen: 406 without SSE; acknowledges, then forwards tagged events from other clients', async () => {
    const port = await start();
    const listenBody = modern('listen-1', 'subscriptions/listen', {
      notifications: {
        resourcesListChanged: true,
        toolsListChanged: true,
        resourceSubscriptions: ['test://status'],
      },
    });
    const json = await send(port, { headers: headersFor('subscriptions/listen'), body: listenBody });
    expect(json.status).toBe(406);
    const stream = await send(port, {
      headers: { ...headersFor('subscriptions/listen'), accept: 'text/event-stream' },
      body: listenBody,
      frames: 3,
      onData: (text) => {
        if (!text.includes('acknowledged') || text.includes('list_changed')) return;
        void send(port, {
          headers: headersFor('tools/call', 'touch'),
          body: modern(12, 'tools/call', {
            name: 'touch',
            arguments: { kind: 'resources', uri: 'test://status' },
          }),
        });
      },
    });
    expect(stream.headers['content-type']).toBe('text/event-stream');
    const sub = { [MetaKeys.subscriptionId]: 'listen-1' };
    expect(stream.events()).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: {
            toolsListChanged: true,
            resourcesListChanged: true,
            resourceSubscriptions: ['test://status'],
          },
          _meta: sub,
        },
      },
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: sub } },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'test://status', _meta: sub },
      },
    ]);
    // The client went away: the listen stream is gone from the server (allow a slow machine a second).
    for (let i = 0; i < 50 && running?.server.protocol.listens.size !== 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(running?.server.protocol.listens.size).toBe(0);
  });

  it('closing a 2026 request stream cancels the request: the handler sees its signal abort', async () => {
    const port = await start();
    const before = slowAborted.count;
    await send(port, {
      headers: { ...headersFor('tools/call', 'slow'), accept: 'application/json, text/event-stream' },
      body: modern(13, 'tools/call', { name: 'slow', arguments: { seconds: 20 } }, { progressToken: 'x' }),
      // The first progress frame shows the handler runs; then the client goes away.
      frames: 1,
    });
    for (let i = 0; i < 50 && slowAborted.count === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(slowAborted.count).toBe(before + 1);
  });

  it('SSE answers carry keepalive comments while the handler works', async () => {
    const port = await start({ keepaliveIntervalMs: 30 });
    const res = await send(port, {
      headers: { ...headersFor('tools/call', 'slow'), accept: 'application/json, text/event-stream' },
      body: modern(14, 'tools/call', { name: 'slow', arguments: { seconds: 0.2 } }),
    });
    expect(res.text).toContain(': keepalive\n\n');
    expect(res.events()).toEqual([
      expect.objectContaining({ id: 14, result: expect.objectContaining({ isError: false }) }),
    ]);
  });

  it('a listen stream open at shutdown ends with its final result', async () => {
    const port = await start();
    const stream = await send(port, {
      headers: { ...headersFor('subscriptions/listen'), accept: 'text/event-stream' },
      body: modern('l2', 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
      onData: (text) => {
        if (text.includes('acknowledged')) void running?.close();
      },
    });
    expect(stream.events()[1]).toEqual({
      jsonrpc: '2.0',
      id: 'l2',
      result: {
        resultType: 'complete',
        _meta: { [MetaKeys.subscriptionId]: 'l2', [MetaKeys.serverInfo]: SERVER_INFO },
      },
    });
  });

  it('a 2026 request stands alone even when it carries a session id', async () => {
    const port = await start();
    const init = await send(port, {
      headers: BASE,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {} },
      },
    });
    const sid = init.headers['mcp-session-id'] as string;
    const res = await send(port, {
      headers: { ...headersFor('tools/list'), 'mcp-session-id': sid },
      body: modern(2, 'tools/list'),
    });
    expect(res.json()).toMatchObject({ result: { resultType: 'complete' } });
  });
});
