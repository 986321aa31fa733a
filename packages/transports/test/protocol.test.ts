/** The protocol engine in memory: eras, negotiation, errors, cancellation, progress, logs, paging, changes. */
import { allowAllPolicy, type PipelineRun, Principal, type TransformPipeline } from '@cloudg/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type JsonRpcMessage, McpProtocolServer, MetaKeys, type Session } from '../src/index.js';
import { initialize, initialized, modern, req } from './support/rpc.js';
import { buildLayer, slowAborted } from './support/test-layer.js';

let server: McpProtocolServer;
afterEach(() => server?.close());

function open(options: ConstructorParameters<typeof McpProtocolServer>[1] = {}) {
  server = new McpProtocolServer(buildLayer(), options);
  const sent: JsonRpcMessage[] = [];
  const session = server.createSession({
    transport: 'memory',
    principal: Principal.local(),
    send: (m) => sent.push(m),
  });
  return { session, sent };
}

async function ready(session: Session, version = '2025-11-25') {
  await session.handle(initialize(1, version));
  await session.handle(initialized);
}

describe('handshake era', () => {
  it('answers initialize with the capabilities, server info and instructions', async () => {
    const { session } = open();
    const res = await session.handle(initialize(1, '2025-06-18'));
    expect(res).toMatchObject({
      id: 1,
      result: {
        protocolVersion: '2025-06-18',
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          logging: {},
          completions: {},
        },
        serverInfo: { name: 'cloudg', version: '0.1.0', title: 'cloudg' },
      },
    });
    expect((res as unknown as { result: { instructions: string } }).result.instructions).toContain(
      'cloud security',
    );
  });

  it.each([
    ['2024-11-05', '2024-11-05'],
    ['2025-03-26', '2025-03-26'],
    ['2025-11-25', '2025-11-25'],
    ['1999-01-01', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
  ])('negotiates %s to %s', async (asked, answered) => {
    const { session } = open();
    const res = await session.handle(initialize(1, asked));
    expect(res).toMatchObject({ result: { protocolVersion: answered } });
  });

  it('accepts only ping before initialize', async () => {
    const { session } = open();
    expect(await session.handle(req(1, 'ping'))).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(await session.handle(req(2, 'tools/list'))).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32600, message: 'Server not initialized: send initialize first' },
    });
  });

  it('maps failures to the documented JSON-RPC errors', async () => {
    const { session } = open();
    await ready(session);
    const err = async (message: unknown) => ((await session.handle(message)) as { error: unknown }).error;
    expect(await err(req(2, 'tools/call', { name: 'nope' }))).toEqual({
      code: -32602,
      message: 'Unknown tool: nope',
      data: { name: 'nope' },
    });
    expect(await err(req(3, 'resources/read', { uri: 'test://items/omega' }))).toEqual({
      code: -32002,
      message: 'No item omega',
      data: { uri: 'test://items/omega' },
    });
    expect(await err(req(4, 'resources/read', { uri: 'test://nothing' }))).toEqual({
      code: -32002,
      message: 'Unknown resource: test://nothing',
      data: { uri: 'test://nothing' },
    });
    expect(await err(req(5, 'tools/call', { name: 'echo', arguments: 'oops' }))).toEqual({
      code: -32602,
      message: 'arguments must be an object',
    });
    expect(await err(req(6, 'no/such'))).toEqual({
      code: -32601,
      message: 'Method not found',
      data: 'no/such',
    });
    expect(await err(req(7, 'server/discover'))).toMatchObject({ code: -32601 });
    expect(await err(req(8, 'prompts/get', { name: 'greet' }))).toMatchObject({
      code: -32602,
      message: 'Missing required prompt arguments: name',
    });
  });

  it('serves tools, resources, templates, prompts and completions', async () => {
    const { session } = open();
    await ready(session);
    const result = async (message: unknown) =>
      ((await session.handle(message)) as { result: Record<string, unknown> }).result;
    const tools = (await result(req(2, 'tools/list'))).tools as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toEqual([
      'echo',
      'boom',
      'slow',
      'noisy',
      'shout',
      'shout_fd',
      'whoami',
      'touch',
    ]);
    expect(await result(req(3, 'tools/call', { name: 'echo', arguments: { text: 'hihi' } }))).toMatchObject({
      isError: false,
      structuredContent: { text: 'hihi' },
    });
    const boom = await result(req(4, 'tools/call', { name: 'boom' }));
    expect(boom).toMatchObject({ isError: true, _meta: { 'cloudg/error_code': 'handler_error' } });
    expect(await result(req(5, 'resources/read', { uri: 'test://items/beta' }))).toMatchObject({
      contents: [{ uri: 'test://items/beta', mimeType: 'application/json' }],
    });
    expect((await result(req(6, 'resources/templates/list'))).resourceTemplates).toMatchObject([
      { uriTemplate: 'test://items/{id}', name: 'item' },
    ]);
    expect(await result(req(7, 'prompts/get', { name: 'greet', arguments: { name: 'Ada' } }))).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }],
    });
    expect(
      await result(
        req(8, 'completion/complete', {
          ref: { type: 'ref/resource', uri: 'test://items/{id}' },
          argument: { name: 'id', value: 'b' },
        }),
      ),
    ).toEqual({ completion: { values: ['beta'], total: 1, hasMore: false } });
  });

  it('refuses batches except on 2024-11-05 and 2025-03-26', async () => {
    const modernSession = open().session;
    await ready(modernSession, '2025-11-25');
    expect(await modernSession.handle([req(2, 'ping'), req(3, 'ping')])).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'JSON-RPC batches are not supported by protocol version 2025-11-25' },
    });
    server.close();
    const old = open().session;
    await ready(old, '2025-03-26');
    expect(await old.handle([req(2, 'ping'), initialized, req(3, 'tools/list')])).toMatchObject([
      { id: 2, result: {} },
      { id: 3, result: { tools: expect.any(Array) } },
    ]);
  });

  it('refuses a 2026 envelope on a handshake connection', async () => {
    const { session } = open();
    await ready(session);
    expect(await session.handle(modern(2, 'tools/list'))).toMatchObject({ error: { code: -32600 } });
  });

  it('sends log notifications from the session level set by logging/setLevel', async () => {
    const { session, sent } = open();
    await ready(session);
    await session.handle(req(2, 'tools/call', { name: 'noisy', _meta: { progressToken: 'p' } }));
    const levels = () =>
      sent
        .filter((m) => 'method' in m && m.method === 'notifications/message')
        .map((m) => (m as unknown as { params: { level: string } }).params.level);
    expect(levels()).toEqual(['info', 'error']);
    expect(sent.filter((m) => 'method' in m && m.method === 'notifications/progress')).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1, total: 2, message: 'half' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 2, total: 2, message: 'all' },
      },
    ]);
    sent.length = 0;
    expect(await session.handle(req(3, 'logging/setLevel', { level: 'error' }))).toMatchObject({
      result: {},
    });
    await session.handle(req(4, 'tools/call', { name: 'noisy' }));
    expect(levels()).toEqual(['error']);
    expect(sent.some((m) => 'method' in m && m.method === 'notifications/progress')).toBe(false);
    expect(await session.handle(req(5, 'logging/setLevel', { level: 'loud' }))).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('cancels a request on notifications/cancelled: the handler sees the abort and no response is sent', async () => {
    const { session } = open();
    await ready(session);
    const before = slowAborted.count;
    const pending = session.handle(req(9, 'tools/call', { name: 'slow', arguments: { seconds: 10 } }));
    // Cancel once the handler runs (a call cancelled before it starts never runs its handler).
    for (let i = 0; i < 100 && session.pending === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 20));
    await session.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } });
    expect(await pending).toBeUndefined();
    expect(slowAborted.count).toBe(before + 1);
  });

  it('sends list changes to initialized sessions and updates only for subscribed URIs', async () => {
    const { session, sent } = open();
    await ready(session);
    await session.handle(req(2, 'resources/subscribe', { uri: 'test://status' }));
    server.layer.notifyChange('tools');
    server.layer.notifyChange('resource', 'test://other');
    server.layer.notifyChange('resources', 'test://status');
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://status' } },
    ]);
    await session.handle(req(3, 'resources/unsubscribe', { uri: 'test://status' }));
    sent.length = 0;
    server.layer.notifyChange('resource', 'test://status');
    expect(sent).toEqual([]);
  });
});

describe('2026-07-28 era', () => {
  it('answers server/discover with versions, capabilities, cache hints and server info', async () => {
    const { session } = open();
    expect(await session.handle(modern(1, 'server/discover'))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        supportedVersions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          logging: {},
          completions: {},
          extensions: { 'io.modelcontextprotocol/tasks': {} },
        },
        instructions: server.layer.identity.instructions,
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { [MetaKeys.serverInfo]: { name: 'cloudg', version: '0.1.0', title: 'cloudg' } },
      },
    });
  });

  it('stamps results: resultType always, cache hints only on cacheable methods', async () => {
    const { session } = open({ cacheTtlMs: 5000, cacheScope: 'public' });
    const list = (await session.handle(modern(1, 'tools/list'))) as unknown as {
      result: Record<string, unknown>;
    };
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 5000, cacheScope: 'public' });
    const call = (await session.handle(
      modern(2, 'tools/call', { name: 'echo', arguments: { text: 'x' } }),
    )) as {
      result: Record<string, unknown>;
    };
    expect(call.result).toMatchObject({ resultType: 'complete', structuredContent: { text: 'x' } });
    expect(call.result).not.toHaveProperty('ttlMs');
    expect((call.result._meta as Record<string, unknown>)[MetaKeys.serverInfo]).toEqual({
      name: 'cloudg',
      version: '0.1.0',
      title: 'cloudg',
    });
  });

  it('validates the envelope: missing keys -32602, unsupported version -32022', async () => {
    const { session } = open();
    const noCaps = {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/list',
      params: { _meta: { [MetaKeys.protocolVersion]: '2026-07-28' } },
    };
    expect(await session.handle(noCaps)).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: {
        code: -32602,
        message:
          'params._meta is missing the required envelope key(s): io.modelcontextprotocol/clientCapabilities',
        data: { missing: ['io.modelcontextprotocol/clientCapabilities'] },
      },
    });
    expect(
      await session.handle(modern(6, 'tools/list', {}, { [MetaKeys.protocolVersion]: '2027-01-01' })),
    ).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2027-01-01',
        data: { supported: ['2026-07-28'], requested: '2027-01-01' },
      },
    });
    expect(
      await session.handle(modern(7, 'tools/list', {}, { [MetaKeys.protocolVersion]: 7 })),
    ).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('removes ping and initialize, reports unknown resources as -32602', async () => {
    const { session } = open();
    expect(await session.handle(modern(7, 'ping'))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32601, message: 'Method not found', data: 'ping' },
    });
    expect(await session.handle(initialize(8))).toMatchObject({ error: { code: -32022 } });
    expect(await session.handle(modern(11, 'initialize'))).toEqual({
      jsonrpc: '2.0',
      id: 11,
      error: { code: -32601, message: 'Method not found', data: 'initialize' },
    });
    expect(await session.handle(modern(9, 'resources/read', { uri: 'test://items/omega' }))).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32602, message: 'No item omega', data: { uri: 'test://items/omega' } },
    });
    expect(await session.handle(req(10, 'tools/list'))).toMatchObject({ error: { code: -32602 } });
  });

  it('sends log notifications only at the request log level', async () => {
    const { session, sent } = open();
    await session.handle(modern(1, 'tools/call', { name: 'noisy' }));
    expect(sent.filter((m) => 'method' in m && m.method === 'notifications/message')).toEqual([]);
    await session.handle(modern(2, 'tools/call', { name: 'noisy' }, { [MetaKeys.logLevel]: 'debug' }));
    expect(sent.filter((m) => 'method' in m && m.method === 'notifications/message')).toHaveLength(3);
  });

  it('subscriptions/listen acknowledges, forwards what was asked for, and ends with a result', async () => {
    const { session, sent } = open();
    const listening = session.handle(
      modern('listen-1', 'subscriptions/listen', {
        notifications: { toolsListChanged: true, resourceSubscriptions: ['test://status'], bogus: true },
      }),
    );
    await new Promise((r) => setImmediate(r));
    server.layer.notifyChange('prompts');
    server.layer.notifyChange('tools');
    server.layer.notifyChange('resource', 'test://other');
    server.layer.notifyChange('resource', 'test://status');
    server.endListens();
    const sub = { [MetaKeys.subscriptionId]: 'listen-1' };
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ['test://status'] },
          _meta: sub,
        },
      },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: sub } },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'test://status', _meta: sub },
      },
    ]);
    const final = (await listening) as { result: Record<string, unknown> };
    expect(final.result).toMatchObject({ resultType: 'complete', _meta: sub });
  });

  it('a cancelled listen ends without a response', async () => {
    const { session } = open();
    const listening = session.handle(
      modern(3, 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
    );
    await new Promise((r) => setImmediate(r));
    await session.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
    expect(await listening).toBeUndefined();
    expect(server.listens.size).toBe(0);
  });
});

describe('list paging', () => {
  it('pages with opaque cursors and refuses bogus ones', async () => {
    const { session } = open({ pageSize: 3 });
    await ready(session);
    const page1 = (
      (await session.handle(req(2, 'tools/list'))) as unknown as {
        result: { tools: { name: string }[]; nextCursor: string };
      }
    ).result;
    expect(page1.tools.map((t) => t.name)).toEqual(['echo', 'boom', 'slow']);
    const page2 = (
      (await session.handle(req(3, 'tools/list', { cursor: page1.nextCursor }))) as unknown as {
        result: { tools: { name: string }[]; nextCursor: string };
      }
    ).result;
    expect(page2.tools.map((t) => t.name)).toEqual(['noisy', 'shout', 'shout_fd']);
    const page3 = (
      (await session.handle(req(4, 'tools/list', { cursor: page2.nextCursor }))) as unknown as {
        result: { tools: { name: string }[]; nextCursor?: string };
      }
    ).result;
    expect(page3.tools.map((t) => t.name)).toEqual(['whoami', 'touch']);
    expect(page3).not.toHaveProperty('nextCursor');
    expect(await session.handle(req(5, 'tools/list', { cursor: 'bogus' }))).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32602, message: 'Invalid cursor' },
    });
    // A tools cursor is no good for prompts.
    expect(await session.handle(req(6, 'prompts/list', { cursor: page1.nextCursor }))).toMatchObject({
      error: { code: -32602, message: 'Invalid cursor' },
    });
  });

  it('page size 0 disables paging', async () => {
    const { session } = open({ pageSize: 0 });
    await ready(session);
    const result = (
      (await session.handle(req(2, 'tools/list'))) as unknown as { result: Record<string, unknown> }
    ).result;
    expect(result).not.toHaveProperty('nextCursor');
    expect(result.tools).toHaveLength(8);
  });
});

describe('subscriptions under a pseudonymising policy', () => {
  // The client knows item alpha only as `p-1`; the workspace announces changes under real URIs.
  const mapping = (from: string, to: string): TransformPipeline => ({
    isEmpty: false,
    run: (value: unknown): PipelineRun => {
      const swap = (v: unknown): unknown =>
        typeof v === 'string'
          ? v.replaceAll(from, to)
          : v && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
            : v;
      return { value: swap(value), report: {} };
    },
  });
  const policy = { ...allowAllPolicy, inputPipeline: () => mapping('p-1', 'alpha') };

  function openPseudonymised() {
    server = new McpProtocolServer(buildLayer({ policy }));
    const sent: JsonRpcMessage[] = [];
    const session = server.createSession({
      transport: 'memory',
      principal: Principal.local(),
      send: (m) => sent.push(m),
    });
    return { session, sent };
  }

  it('handshake era: an update to the real URI reaches the client under the pseudonym it subscribed to', async () => {
    const { session, sent } = openPseudonymised();
    await ready(session);
    await session.handle(req(2, 'resources/subscribe', { uri: 'test://items/p-1' }));
    server.layer.notifyChange('resource', 'test://items/alpha');
    server.layer.notifyChange('resource', 'test://items/beta');
    expect(sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://items/p-1' } },
    ]);
    await session.handle(req(3, 'resources/unsubscribe', { uri: 'test://items/p-1' }));
    sent.length = 0;
    server.layer.notifyChange('resource', 'test://items/alpha');
    expect(sent).toEqual([]);
  });

  it('2026-07-28 era: a listen filter naming the pseudonym gets the update under it', async () => {
    const { session, sent } = openPseudonymised();
    const listening = session.handle(
      modern('l-1', 'subscriptions/listen', {
        notifications: { resourceSubscriptions: ['test://items/p-1'] },
      }),
    );
    for (let i = 0; i < 20 && server.listens.size === 0; i++) await new Promise((r) => setImmediate(r));
    server.layer.notifyChange('resource', 'test://items/alpha');
    server.endListens();
    await listening;
    expect(sent.filter((m) => 'method' in m && m.method === 'notifications/resources/updated')).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'test://items/p-1', _meta: { [MetaKeys.subscriptionId]: 'l-1' } },
      },
    ]);
  });
});
