/**
 * Someone who can write to Redis (but has no vault key) copies what the replicas sealed and
 * plays it again later, against replicas sharing 2025-era sessions in one real redis-server: a
 * cancellation published again once the client reused the request id, an answer published
 * again for the next question, a log entry copied to a later place of the log, a signal older
 * than the bound, and a forged `initialized` flag. None of them is taken.
 *
 * @isolated one test makes this process's event clock (session-append.ts, one per process) follow
 * a log id 30 s ahead; files sharing the module graph then saw ids 30 s in the future
 * (session-append.test.ts failed when run after it).
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisSharedState, sharedStateOn } from '../src/index.js';
import { call, Stream } from './support/http-client.js';
import {
  type HttpReplica,
  LIVE_HEARTBEAT_MS,
  REPLICA_SEALER,
  startReplicas,
} from './support/http-replicas.js';
import { initialize, on, openSession, rpc, sleep } from './support/mcp.js';
import { TestRedis } from './support/redis-server.js';

let redis: TestRedis;
let replicas: HttpReplica[] = [];
let clients: Redis[] = [];
let states: RedisSharedState[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterEach(async () => {
  for (const s of states) await s.close();
  for (const c of clients) c.disconnect();
  for (const r of replicas) await r.close();
  states = [];
  clients = [];
  replicas = [];
});
afterAll(async () => {
  await redis?.stop();
});

function prefix(): string {
  prefixes += 1;
  return `replay${prefixes}:`;
}

async function start(names: string[], keyPrefix: string): Promise<HttpReplica[]> {
  const heartbeats = Object.fromEntries(names.map((n) => [n, LIVE_HEARTBEAT_MS]));
  const started = await startReplicas(redis.url, names, keyPrefix, { heartbeats });
  replicas.push(...started);
  return started;
}

/** A connection of the attacker's, and one that records what is published on `channel`. */
async function attacker(channel: string): Promise<{ r: Redis; heard: string[] }> {
  const r = new Redis(redis.url);
  const listener = new Redis(redis.url);
  clients.push(r, listener);
  const heard: string[] = [];
  listener.on('message', (_channel: string, message: string) => heard.push(message));
  await listener.subscribe(channel);
  return { r, heard };
}

async function until(test: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test() && Date.now() < deadline) await sleep(10);
  expect(test()).toBe(true);
}

const structured = (body: unknown) =>
  (body as { result?: { structuredContent?: unknown } }).result?.structuredContent;

describe('sealed session state played again by someone who can write to Redis', { timeout: 60_000 }, () => {
  it('a cancellation published again does not stop a later request that reused the id', async () => {
    const p = prefix();
    const [a, b] = (await start(['A', 'B'], p)) as [HttpReplica, HttpReplica];
    const { r, heard } = await attacker(`${p}bus`);
    const session = await openSession(a);
    const work = (replica: HttpReplica, ms: number) =>
      rpc(replica, session, { id: 21, method: 'tools/call', params: { name: 'work', arguments: { ms } } });

    const first = work(b, 4000);
    await until(() => b.calls === 1);
    const cancelledAt = Date.now();
    expect(
      (await rpc(a, session, { method: 'notifications/cancelled', params: { requestId: 21 } })).status,
    ).toBe(202);
    // Cancelled: no answer, the POST ends with 202 long before the 4 s.
    expect((await first).status).toBe(202);
    await until(() => heard.some((m) => m.startsWith('{"x":')));
    const copies = heard.filter((m) => m.startsWith('{"x":'));

    // The client reuses id 21; the copy reaches B, which heard the original: refused as seen.
    const second = work(b, 1200);
    await until(() => b.calls === 2);
    for (const copy of copies) await r.publish(`${p}bus`, copy);
    expect(structured((await second).body)).toEqual({ done: true });

    // A replica started since has not seen it: refused as sent before the request started.
    const [c] = (await start(['C'], p)) as [HttpReplica];
    await sleep(Math.max(0, cancelledAt + 1500 - Date.now()));
    const third = work(c, 1200);
    await until(() => c.calls === 1);
    for (const copy of copies) await r.publish(`${p}bus`, copy);
    expect(structured((await third).body)).toEqual({ done: true });
  });

  it('an answer published again settles no later question, even one with the same request id', async () => {
    const p = prefix();
    const [a, b] = (await start(['A', 'B'], p)) as [HttpReplica, HttpReplica];
    const { r, heard } = await attacker(`${p}replica:${b.state.sessions.replica}`);
    const { session } = await initialize(a, 'atok', { elicitation: {} });
    await rpc(a, session, { method: 'notifications/initialized' });
    const stream = await Stream.open(a.port, on(session));
    const confirm = () =>
      rpc(b, session, { id: 7, method: 'tools/call', params: { name: 'confirm', arguments: {} } });
    const answer = (id: unknown, result: Record<string, unknown>) =>
      call(a.port, { headers: on(session), body: { jsonrpc: '2.0', id, result } });

    // Asked on B, answered through A: the answer travels to B sealed, and is copied.
    const first = confirm();
    const [q1] = (await stream.until((f) => f.length >= 1)).map((f) => f.data as { id: string });
    await answer(q1?.id, { action: 'accept', content: { confirm: true } });
    expect(structured((await first).body)).toEqual({ confirmed: true });
    const copies = heard.filter((m) => m.startsWith('{"x":'));
    expect(copies.length).toBeGreaterThan(0);

    const second = confirm();
    const q2 = (await stream.until((f) => f.length >= 2))[1]?.data as { id: string };
    // Every question has an id of its own, not just the request's.
    expect(q2.id).not.toBe(q1?.id);
    for (const copy of copies) await r.publish(`${p}replica:${b.state.sessions.replica}`, copy);
    await sleep(300);
    await answer(q2.id, { action: 'decline' });
    expect(structured((await second).body)).toEqual({ confirmed: false });
    stream.close();
  });

  it("a late answer to an earlier question does not settle a later one the replica asked with the request's id", async () => {
    const p = prefix();
    // B's view of the session is dropped when idle (1.5 s) and made again for the next request;
    // the session itself lives on (A's stream holds it).
    const [a, b] = (await startReplicas(redis.url, ['A', 'B'], p, {
      heartbeats: { A: 300, B: 300 },
      sessionIdleTimeoutMs: 1500,
    })) as [HttpReplica, HttpReplica];
    replicas.push(a, b);
    const { session } = await initialize(a, 'atok', { elicitation: {} });
    await rpc(a, session, { method: 'notifications/initialized' });
    const stream = await Stream.open(a.port, on(session));
    const confirm = () =>
      rpc(b, session, { id: 7, method: 'tools/call', params: { name: 'confirm', arguments: {} } });
    const answer = (id: unknown, result: Record<string, unknown>) =>
      call(a.port, { headers: on(session), body: { jsonrpc: '2.0', id, result } });
    const accept = { action: 'accept', content: { confirm: true } };

    const first = confirm();
    const [q1] = (await stream.until((f) => f.length >= 1)).map((f) => f.data as { id: string });
    await answer(q1?.id, accept);
    expect(structured((await first).body)).toEqual({ confirmed: true });
    await sleep(2800);
    const second = confirm();
    const q2 = (await stream.until((f) => f.length >= 2))[1]?.data as { id: string };
    // A view made again counts from 1 again: only its own random part tells the questions apart.
    expect(q2.id.endsWith('-1')).toBe(true);
    expect(q2.id).not.toBe(q1?.id);
    // The client sends its first answer again (late); A relays it to B, fresh and sealed.
    await answer(q1?.id, accept);
    await sleep(300);
    await answer(q2.id, { action: 'decline' });
    expect(structured((await second).body)).toEqual({ confirmed: false });
    stream.close();
  });

  it('an entry of the log copied to a later place is not written, live or on resuming', async () => {
    const p = prefix();
    const [a, b] = (await start(['A', 'B'], p)) as [HttpReplica, HttpReplica];
    const { r } = await attacker(`${p}bus`);
    const alice = await openSession(a);
    const stream = await Stream.open(a.port, on(alice));
    a.layer.notifyChange('tools');
    await stream.until((f) => f.length >= 1);
    const log = `${p}session:${alice}:log`;
    const [[, fields] = ['', []]] = (await r.xrevrange(log, '+', '-', 'COUNT', 1)) as [string, string[]][];
    // The same sealed entry added after itself, and routed to the stream's holder.
    const copied = (await r.xadd(log, '*', 'm', fields[1] ?? '')) as string;
    await r.publish(
      `${p}replica:${a.state.sessions.replica}`,
      JSON.stringify({ e: copied, s: alice, m: fields[1] }),
    );
    await sleep(200);
    a.layer.notifyChange('prompts');
    await stream.until((f) => f.length >= 2);
    await sleep(200);
    const expected = ['notifications/tools/list_changed', 'notifications/prompts/list_changed'];
    expect(stream.messages.map((m) => m.method)).toEqual(expected);
    stream.close();
    await sleep(100);
    const resumed = await Stream.open(b.port, { ...on(alice), 'last-event-id': '0-0' });
    await resumed.until((f) => f.length >= 2);
    await sleep(200);
    expect(resumed.messages.map((m) => m.method)).toEqual(expected);
    resumed.close();
  });

  it('an entry logged after a later id (a replica whose clock is ahead) is sealed again after it', async () => {
    const p = prefix();
    const [a] = (await start(['A'], p)) as [HttpReplica];
    const { r } = await attacker(`${p}bus`);
    const alice = await openSession(a);
    const stream = await Stream.open(a.port, on(alice));
    // Ahead by less than replicas' clocks may differ (session-append.ts's MAX_LOG_AHEAD_MS).
    const ahead = Date.now() + 30_000;
    await r.xadd(`${p}session:${alice}:log`, `${ahead}-0`, 'm', 'another replica');
    a.layer.notifyChange('tools');
    const [frame] = await stream.until((f) => f.length >= 1);
    expect(frame?.id).toBe(`${ahead}-1`);
    expect(stream.messages.map((m) => m.method)).toEqual(['notifications/tools/list_changed']);
    stream.close();
  });

  it('a forged initialized flag does not make a session initialized, nor one copied from another', async () => {
    const p = prefix();
    const [a] = (await start(['A'], p)) as [HttpReplica];
    const { r } = await attacker(`${p}bus`);
    const { session } = await initialize(a);
    const bob = await openSession(a, 'btok');
    const load = async () => (await a.state.sessions.load(session))?.initialized;
    expect(await load()).toBe(false);
    await r.hset(`${p}session:${session}`, 'i', '1');
    expect(await load()).toBe(false);
    await r.hset(`${p}session:${session}`, 'is', (await r.hget(`${p}session:${bob}`, 'is')) ?? '');
    expect(await load()).toBe(false);
    // The client's own notifications/initialized does.
    expect((await rpc(a, session, { method: 'notifications/initialized' })).status).toBe(202);
    expect(await load()).toBe(true);
  });
});

describe('the freshness of the signals between replicas', { timeout: 30_000 }, () => {
  it('takes a signal once, and not at all once it is older than the bound', async () => {
    const p = prefix();
    const { r, heard } = await attacker(`${p}bus`);
    const replica = async () => {
      const client = new Redis(redis.url);
      const state = sharedStateOn(client, p, { signalMaxAgeMs: 400 });
      state.sealWith(REPLICA_SEALER);
      await state.sessions.ready();
      states.push(state);
      const told: string[] = [];
      state.sessions.onSignal((s) => {
        if (s.type === 'ended') told.push(s.session);
      });
      return { state, told };
    };
    const x = await replica();
    const y = await replica();
    await x.state.sessions.signal(undefined, { type: 'ended', session: 'one' });
    await until(() => y.told.length === 1 && heard.length === 1);
    const [copy = ''] = heard;
    await r.publish(`${p}bus`, copy);
    await sleep(150);
    expect(y.told).toEqual(['one']);
    // Past the bound, even a replica that never saw it refuses it; a fresh signal still passes.
    await sleep(400);
    const z = await replica();
    await r.publish(`${p}bus`, copy);
    await x.state.sessions.signal(undefined, { type: 'ended', session: 'two' });
    await until(() => z.told.length >= 1);
    await sleep(100);
    expect(z.told).toEqual(['two']);
    expect(y.told).toEqual(['one', 'two']);
  });
});
