/**
 * The deprecated HTTP+SSE transport behind two replicas sharing a LegacySseRelay (here one in
 * memory, which carries each post through JSON as a real relay would): a POST that reaches the
 * replica not holding the stream is checked there exactly as the holder checks it, forwarded with
 * its caller, and answered on the stream; the endpoint is named only once the session is
 * recorded; the relay's count of sessions (shared by the replicas) decides 429 and 503, not each
 * replica's own; a relay out of reach means 503 and retry, and a holder gone means 404.
 */
import { type IncomingMessage, request } from 'node:http';
import { McpLayerError } from '@cloudg/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type LegacySseHolder,
  type LegacySsePost,
  type LegacySseQuota,
  type LegacySseRelay,
  type RunningHttpServer,
  serveHttp,
} from '../src/index.js';
import { send } from './support/http.js';
import { initialize, req } from './support/rpc.js';
import { buildLayer } from './support/test-layer.js';

/** What a shared store would refuse with when out of reach: retryable, so the server says 503. */
class Unreachable extends McpLayerError {
  override readonly code = 'shared_state_unavailable';
}

/**
 * Every replica's relay over one map and one set of listeners, as Redis would join them; the
 * records are also the count of sessions (there are no 2025 sessions to end here).
 */
class Hub {
  readonly records = new Map<string, LegacySseHolder & { principalId: string }>();
  readonly listeners = new Map<string, (post: LegacySsePost) => void>();
  readonly forwarded: LegacySsePost[] = [];
  readonly quotas: LegacySseQuota[] = [];
  readonly released: string[] = [];
  /** `hold` waits for this, when set. */
  gate: Promise<void> | undefined;
  failHold = false;

  relay(replica: string): LegacySseRelay {
    return {
      replica,
      hold: async (id, binding, quota) => {
        await this.gate;
        if (this.failHold)
          throw new Unreachable('Shared state unavailable: retry shortly', {
            data: { retryable: true, state: 'sessions' },
          });
        this.quotas.push(quota);
        const own = [...this.records.values()].filter((r) => r.principalId === quota.principalId);
        if (own.length >= quota.maxPerPrincipal) return 'quota';
        if (this.records.size >= quota.maxSessions) return 'full';
        this.records.set(id, { replica, binding, principalId: quota.principalId });
        return 'ok';
      },
      release: async (id) => {
        this.released.push(id);
        if (this.records.get(id)?.replica === replica) this.records.delete(id);
      },
      locate: async (id) => this.records.get(id),
      forward: async (to, post) => {
        const listener = this.listeners.get(to);
        if (!listener) return false;
        const wire = JSON.parse(JSON.stringify(post)) as LegacySsePost;
        this.forwarded.push(wire);
        setImmediate(() => listener(wire));
        return true;
      },
      onPost: (listener) => {
        this.listeners.set(replica, listener);
        return () => this.listeners.delete(replica);
      },
    };
  }
}

const ALICE = { authorization: 'Bearer s3cret' };
const BOB = { authorization: 'Bearer other' };

let servers: RunningHttpServer[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

async function replicas(hub: Hub, options: Parameters<typeof serveHttp>[1] = {}) {
  for (const name of ['A', 'B'])
    servers.push(
      await serveHttp(buildLayer(), {
        port: 0,
        transport: 'sse',
        authTokens: ['s3cret:analyst:alice', 'other:analyst:bob'],
        legacySseRelay: hub.relay(name),
        ...options,
      }),
    );
  return servers.map((s) => s.port) as [number, number];
}

/** `GET /sse`: its status, the endpoint once named, and the messages after it. */
function openStream(port: number, headers: Record<string, string> = ALICE) {
  const messages: Record<string, unknown>[] = [];
  let response: IncomingMessage | undefined;
  let named: (endpoint: string) => void = () => {};
  const endpoint = new Promise<string>((resolve) => {
    named = resolve;
  });
  const opened = new Promise<number>((resolve, reject) => {
    const r = request(
      { host: '127.0.0.1', port, path: '/sse', headers: { accept: 'text/event-stream', ...headers } },
      (res) => {
        response = res;
        resolve(res.statusCode ?? 0);
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (data === undefined) continue;
            if (/^event: endpoint$/m.test(frame)) named(data);
            else messages.push(JSON.parse(data) as Record<string, unknown>);
          }
        });
      },
    );
    r.on('error', reject);
    r.end();
  });
  return {
    opened,
    endpoint,
    messages,
    response: () => response,
    async answer(id: number) {
      for (let i = 0; i < 250; i++) {
        const found = messages.find((m) => m.id === id);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return undefined;
    },
    close: () => response?.destroy(),
  };
}

describe('the deprecated HTTP+SSE transport with a LegacySseRelay', () => {
  it('forwards a POST for a session the other replica holds, with its caller, and answers on the stream', async () => {
    const hub = new Hub();
    const [a, b] = await replicas(hub);
    const stream = openStream(a);
    const endpoint = await stream.endpoint;
    expect(
      (await send(b, { path: endpoint, headers: ALICE, body: initialize(1, '2024-11-05') })).status,
    ).toBe(202);
    expect(await stream.answer(1)).toMatchObject({ result: { protocolVersion: '2024-11-05' } });
    expect((await send(b, { path: endpoint, headers: ALICE, body: req(2, 'tools/list') })).status).toBe(202);
    expect(await stream.answer(2)).toMatchObject({ result: { tools: expect.any(Array) } });
    expect(hub.forwarded.map((p) => p.principal)).toEqual([
      { id: 'alice', roles: ['analyst', 'default'], attributes: {} },
      { id: 'alice', roles: ['analyst', 'default'], attributes: {} },
    ]);
    stream.close();
  });

  it('checks the caller and the body on the forwarding replica as the holder does, forwarding none of them', async () => {
    const hub = new Hub();
    const [a, b] = await replicas(hub, { maxBodyBytes: 200 });
    const stream = openStream(a);
    const endpoint = await stream.endpoint;
    const cases: Parameters<typeof send>[1][] = [
      { path: endpoint, headers: BOB, body: req(1, 'ping') },
      { path: endpoint, headers: { ...ALICE, 'content-type': 'text/plain' }, body: req(2, 'ping') },
      { path: endpoint, headers: ALICE, body: '{"jsonrpc": "2.0", "id": 3,' },
      { path: endpoint, headers: ALICE, body: req(4, 'ping', { pad: 'x'.repeat(300) }) },
      { path: '/messages/', headers: ALICE, body: req(5, 'ping') },
    ];
    for (const request of cases) {
      const onHolder = await send(a, request);
      const elsewhere = await send(b, request);
      expect([elsewhere.status, elsewhere.text]).toEqual([onHolder.status, onHolder.text]);
    }
    const statuses = [];
    for (const request of cases) statuses.push((await send(b, request)).status);
    expect(statuses).toEqual([404, 415, 400, 413, 400]);
    expect(hub.forwarded).toEqual([]);
    stream.close();
  });

  it('names the endpoint only once the session is recorded, so the first POST finds it anywhere', async () => {
    const hub = new Hub();
    const [a, b] = await replicas(hub);
    let open: () => void = () => {};
    hub.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const stream = openStream(a);
    const first = await Promise.race([
      stream.endpoint,
      new Promise((resolve) => setTimeout(() => resolve('not yet'), 200)),
    ]);
    expect(first).toBe('not yet');
    open();
    const endpoint = await stream.endpoint;
    expect((await send(b, { path: endpoint, headers: ALICE, body: req(1, 'ping') })).status).toBe(202);
    expect(await stream.answer(1)).toMatchObject({ result: {} });
    stream.close();
  });

  it('answers GET /sse 503 with Retry-After when the session cannot be recorded', async () => {
    const hub = new Hub();
    const [a] = await replicas(hub);
    hub.failHold = true;
    const res = await send(a, {
      method: 'GET',
      path: '/sse',
      headers: { ...ALICE, accept: 'text/event-stream' },
    });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({ error: { data: { error_code: 'shared_state_unavailable' } } });
    expect(hub.records.size).toBe(0);
  });

  it('counts sessions through the relay, across both replicas: 429 over the quota, 503 at the cap, nothing recorded', async () => {
    const hub = new Hub();
    const [a, b] = await replicas(hub, { maxSessions: 3, maxSessionsPerPrincipal: 2 });
    const streams = [openStream(a), openStream(a)];
    for (const stream of streams) await stream.endpoint;
    expect(hub.quotas).toEqual([
      { principalId: 'alice', maxSessions: 3, maxPerPrincipal: 2 },
      { principalId: 'alice', maxSessions: 3, maxPerPrincipal: 2 },
    ]);
    // B holds none of alice's sessions, and still refuses her third.
    const third = await send(b, {
      method: 'GET',
      path: '/sse',
      headers: { ...ALICE, accept: 'text/event-stream' },
    });
    expect(third.status).toBe(429);
    expect(third.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -31029,
        message:
          'Too many sessions for this principal: the limit is 2 (maxSessionsPerPrincipal) and none is idle; end sessions you no longer use with DELETE',
        data: { limit: 2, option: 'maxSessionsPerPrincipal' },
      },
    });
    const bobs = openStream(b, BOB);
    await bobs.endpoint;
    const full = await send(b, {
      method: 'GET',
      path: '/sse',
      headers: { ...BOB, accept: 'text/event-stream' },
    });
    expect([full.status, full.json()]).toEqual([
      503,
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Service Unavailable: too many sessions' },
      },
    ]);
    // A refused session was never recorded: nothing to release for it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hub.released).toEqual([]);
    expect(hub.records.size).toBe(3);
    // A stream that closes frees its place for another replica.
    streams[0]?.close();
    for (let i = 0; i < 100 && hub.records.size === 3; i++) await new Promise((r) => setTimeout(r, 10));
    const again = openStream(b);
    expect(await again.opened).toBe(200);
    await again.endpoint;
    for (const stream of [streams[1], bobs, again]) stream?.close();
  });

  it('answers 404 when the holder is gone, and forgets the session everywhere when its stream closes', async () => {
    const hub = new Hub();
    const [a, b] = await replicas(hub);
    const stream = openStream(a);
    const endpoint = await stream.endpoint;
    const session = new URL(endpoint, 'http://x').searchParams.get('session_id') as string;
    expect(hub.records.get(session)?.replica).toBe('A');
    // A replica that hears nothing any more (the relay found no one to take the post).
    const listener = hub.listeners.get('A');
    hub.listeners.delete('A');
    expect((await send(b, { path: endpoint, headers: ALICE, body: req(1, 'ping') })).status).toBe(404);
    if (listener) hub.listeners.set('A', listener);
    stream.close();
    for (let i = 0; i < 100 && hub.records.has(session); i++) await new Promise((r) => setTimeout(r, 10));
    expect(hub.records.has(session)).toBe(false);
    expect((await send(b, { path: endpoint, headers: ALICE, body: req(2, 'ping') })).status).toBe(404);
  });
});
