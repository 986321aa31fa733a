/**
 * Shared sessions under concurrent requests and mixed limits, in one real redis-server: a
 * subscription made by one request survives another request on the same replica reading the
 * session meanwhile, and the per-principal quota never ends a session for a new one the global
 * cap then refuses.
 */
import { describe, expect, it } from 'vitest';
import { call } from './support/http-client.js';
import { type HttpReplica, LIVE_HEARTBEAT_MS, startReplicas } from './support/http-replicas.js';
import { sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();
let prefixes = 0;

async function one(): Promise<HttpReplica> {
  prefixes += 1;
  env.replicas = await startReplicas(env.redis.url, ['A'], `races${prefixes}:`, {
    heartbeats: { A: LIVE_HEARTBEAT_MS },
  });
  return env.replicas[0] as HttpReplica;
}

// 2025-03-26 still has batches: a batch's state is written back once all of it is answered.
const OLD = '2025-03-26';
const headers = (session?: string) => ({
  authorization: 'Bearer atok',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': OLD,
  ...(session ? { 'mcp-session-id': session } : {}),
});

describe('shared sessions under concurrent requests', { timeout: 60_000 }, () => {
  it('keeps a subscription whose request is still running when another request reads the session', async () => {
    const a = await one();
    const opened = await call(a.port, {
      headers: headers(),
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: OLD, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      },
    });
    const session = String(opened.headers['mcp-session-id']);
    await call(a.port, {
      headers: headers(session),
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    // Subscribed at once, saved only when the slow call in the same batch is done.
    const batch = call(a.port, {
      headers: headers(session),
      body: [
        { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'memo://status' } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'work', arguments: { ms: 1000 } } },
      ],
    });
    await sleep(300);
    const ping = await call(a.port, {
      headers: headers(session),
      body: { jsonrpc: '2.0', id: 4, method: 'ping' },
    });
    expect(ping.status).toBe(200);
    expect((await batch).status).toBe(200);
    expect((await a.state.sessions.load(session))?.subscriptions).toEqual({
      'memo://status': 'memo://status',
    });
  });
});

describe('the session quota next to the global cap', { timeout: 60_000 }, () => {
  it('does not end a session of the principal when the cap refuses the new one anyway', async () => {
    const a = await one();
    const store = a.state.sessions;
    const state = (principalId: string) => ({
      binding: JSON.stringify([principalId, []]),
      principalId,
      initialized: false,
      logLevel: 'info' as const,
      subscriptions: {},
    });
    const roomy = { maxSessions: 4, maxPerPrincipal: 2, idleMs: 60_000 };
    for (const [id, who] of [
      ['a1', 'alice'],
      ['a2', 'alice'],
      ['b1', 'bob'],
      ['b2', 'bob'],
      ['c1', 'carol'],
    ] as const)
      expect(await store.open(id, state(who), { ...roomy, maxSessions: 5 })).toBe('ok');
    // A replica configured with a lower cap: alice is at her quota, and the cap is reached
    // even without her idle session.
    expect(await store.open('a3', state('alice'), roomy)).toBe('full');
    expect(await store.load('a1')).toBeDefined();
    expect(await store.load('a2')).toBeDefined();
    expect(await store.load('a3')).toBeUndefined();
    // Where ending her idle session makes room, it still does.
    expect(await store.open('a3', state('alice'), { ...roomy, maxSessions: 5 })).toBe('ok');
    // Her least recently used one (a2 was read after a1 above).
    expect(await store.load('a1')).toBeUndefined();
    expect(await store.load('a2')).toBeDefined();
  });
});
