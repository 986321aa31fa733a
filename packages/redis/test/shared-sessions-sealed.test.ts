/**
 * Someone who can read and write Redis but has no vault key, against two replicas sharing
 * sessions in one real redis-server: what they read names nothing (no real URI, principal,
 * client or question), and nothing they write or publish is taken for a session's (an answer to
 * a question, an event, a cancellation, an end, a log entry, another session's binding).
 */
import { createVaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { call, Stream } from './support/http-client.js';
import { type HttpReplica, LIVE_HEARTBEAT_MS, startReplicas } from './support/http-replicas.js';
import { initialize, on, openSession, rpc, sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();
let attacker: Redis | undefined;
let prefixes = 0;

// Registered after sharedRedis's hooks, so it runs before the replicas close (as before).
afterEach(async () => {
  await attacker?.quit();
  attacker = undefined;
});

async function two(pseudonymise = false) {
  prefixes += 1;
  const prefix = `sealed${prefixes}:`;
  const heartbeats = { A: LIVE_HEARTBEAT_MS, B: LIVE_HEARTBEAT_MS };
  env.replicas = await startReplicas(env.redis.url, ['A', 'B'], prefix, { pseudonymise, heartbeats });
  const [a, b] = env.replicas as [HttpReplica, HttpReplica];
  attacker = a.state.client.duplicate({ enableOfflineQueue: true });
  return { a, b, prefix, r: attacker };
}

/** Every key of the prefix with its whole content, as text. */
async function dump(r: Redis, prefix: string): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const key of await r.keys(`${prefix}*`)) {
    const type = await r.type(key);
    if (type === 'hash') out[key] = await r.hgetall(key);
    else if (type === 'stream') out[key] = await r.xrange(key, '-', '+');
    else if (type === 'zset') out[key] = await r.zrange(key, '0', '-1');
    else if (type === 'string') out[key] = await r.get(key);
  }
  return JSON.stringify(out);
}

const structured = (body: unknown) =>
  (body as { result: { structuredContent: unknown } }).result.structuredContent;

describe('shared sessions in Redis, seen by someone without the vault key', { timeout: 60_000 }, () => {
  it('holds and publishes no real URI, principal, client or question in clear', async () => {
    const { a, b, prefix, r } = await two(true);
    const heard: string[] = [];
    const listener = r.duplicate();
    listener.on('message', (_channel: string, message: string) => heard.push(message));
    await listener.psubscribe(`${prefix}*`);
    const { session } = await initialize(a, 'atok', { elicitation: {} });
    await rpc(a, session, { method: 'notifications/initialized' });
    const stream = await Stream.open(a.port, on(session));
    // Subscribed under the pseudonym; the change is announced under the real URI.
    expect(
      (await rpc(b, session, { id: 2, method: 'resources/subscribe', params: { uri: 'memo://items/p-1' } }))
        .status,
    ).toBe(200);
    const pending = rpc(b, session, {
      id: 3,
      method: 'tools/call',
      params: { name: 'confirm', arguments: {} },
    });
    const [question] = (await stream.until((f) => f.length >= 1)).map((f) => f.data as { id: string });
    await call(b.port, {
      headers: on(session),
      body: { jsonrpc: '2.0', id: question?.id, result: { action: 'accept', content: { confirm: true } } },
    });
    expect(structured((await pending).body)).toEqual({ confirmed: true });
    a.layer.notifyChange('resource', 'memo://items/alpha');
    await stream.until((f) =>
      f.some((x) => (x.data as { method?: string }).method === 'notifications/resources/updated'),
    );
    // The client is told under its own URI.
    expect(stream.frames.map((f) => f.data)).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'memo://items/p-1' },
    });
    stream.close();
    await sleep(100);
    const stored = await dump(r, prefix);
    const published = heard.join('\n');
    for (const secret of ['alpha', 'alice', 'Go ahead', 'elicitation', '"test"', 'p-1', 'memo://']) {
      expect(stored).not.toContain(secret);
      expect(published).not.toContain(secret);
    }
    await listener.quit();
  });

  it('takes no forged answer to a question, whatever it knows of the ids', async () => {
    const { a, b, prefix, r } = await two();
    const { session } = await initialize(a, 'atok', { elicitation: {} });
    await rpc(a, session, { method: 'notifications/initialized' });
    const stream = await Stream.open(a.port, on(session));
    const pending = rpc(b, session, {
      id: 7,
      method: 'tools/call',
      params: { name: 'confirm', arguments: {} },
    });
    const [question] = (await stream.until((f) => f.length >= 1)).map((f) => f.data as { id: string });
    const accept = {
      jsonrpc: '2.0',
      id: question?.id,
      result: { action: 'accept', content: { confirm: true } },
    };
    const other = createVaultSealer({ key: 'not-the-replicas-key' });
    const forged = [
      JSON.stringify({ type: 'response', session, message: accept }),
      JSON.stringify({
        x: other.seal(JSON.stringify({ type: 'response', session, message: accept }), 'session-signal'),
      }),
    ];
    for (const message of forged) {
      await r.publish(`${prefix}replica:${b.state.sessions.replica}`, message);
      await r.publish(`${prefix}bus`, message);
    }
    await sleep(300);
    // The person declines: that is the answer the call gets.
    await call(a.port, {
      headers: on(session),
      body: { jsonrpc: '2.0', id: question?.id, result: { action: 'decline' } },
    });
    expect(structured((await pending).body)).toEqual({ confirmed: false });
    stream.close();
  });

  it('takes no entry of the session published again under another event id', async () => {
    const { a, prefix, r } = await two();
    const alice = await openSession(a);
    const stream = await Stream.open(a.port, on(alice));
    a.layer.notifyChange('tools');
    await stream.until((f) => f.length >= 1);
    const [last] = (await r.xrevrange(`${prefix}session:${alice}:log`, '+', '-', 'COUNT', 1)) as [
      string,
      string[],
    ][];
    const fields = last?.[1] ?? [];
    // Its own sealed entry, replayed under an id far ahead: it would hold back every later event.
    await r.publish(
      `${prefix}replica:${a.state.sessions.replica}`,
      JSON.stringify({ e: '9999999999999-0', s: alice, m: fields[1] }),
    );
    await sleep(200);
    a.layer.notifyChange('prompts');
    await stream.until((f) => f.length >= 2);
    expect(stream.frames.map((f) => (f.data as { method: string }).method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
    ]);
    stream.close();
  });

  it('takes no forged event, cancellation, end or log entry, and no binding copied from another session', async () => {
    const { a, b, prefix, r } = await two();
    const alice = await openSession(a);
    const bob = await openSession(a, 'btok');
    const stream = await Stream.open(a.port, on(alice));
    const working = rpc(b, alice, {
      id: 11,
      method: 'tools/call',
      params: { name: 'work', arguments: { ms: 1500 } },
    });
    await sleep(200);
    const planted = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'error', data: 'planted' },
    };
    const other = createVaultSealer({ key: 'not-the-replicas-key' });
    await r.publish(`${prefix}bus`, JSON.stringify({ type: 'cancel', session: alice, requestId: 11 }));
    await r.publish(
      `${prefix}replica:${a.state.sessions.replica}`,
      JSON.stringify({ type: 'event', session: alice, event: { id: '9999999999999-0', message: planted } }),
    );
    await r.publish(
      `${prefix}replica:${a.state.sessions.replica}`,
      JSON.stringify({
        e: '9999999999999-1',
        s: alice,
        m: other.seal(JSON.stringify({ s: alice, v: planted }), 'session-log'),
      }),
    );
    await r.xadd(`${prefix}session:${alice}:log`, '*', 'm', JSON.stringify(planted));
    await r.publish(`${prefix}bus`, JSON.stringify({ type: 'ended', session: alice }));
    // Not cancelled: the call runs to its end.
    expect(structured((await working).body)).toEqual({ done: true });
    // Not ended: the session answers on every replica, its stream still open.
    expect((await rpc(b, alice, { id: 12, method: 'ping' })).status).toBe(200);
    expect(stream.ended).toBe(false);
    stream.close();
    await sleep(100);
    // Resumed from the start of the log: the planted entry is not among what is replayed.
    const resumed = await Stream.open(b.port, { ...on(alice), 'last-event-id': '0-0' });
    await sleep(300);
    const seen = JSON.stringify([...stream.frames, ...resumed.frames]);
    expect(seen).not.toContain('planted');
    resumed.close();
    // Bob's binding written over Alice's: the session is nobody's, not Bob's.
    const bobs = await r.hget(`${prefix}session:${bob}`, 'b');
    await r.hset(`${prefix}session:${alice}`, 'b', bobs ?? '');
    expect((await rpc(b, alice, { id: 13, method: 'ping' }, 'btok')).status).toBe(404);
  });
});
