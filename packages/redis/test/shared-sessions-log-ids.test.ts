/**
 * Event ids of the shared sessions' logs on a real redis-server: one replica's messages of one
 * session are logged in the order sent even when another replica logged in the same millisecond,
 * and an id planted in one session's log (by someone who can write to Redis) refuses appends to
 * that session only, never every session of the replica.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { sharedStateOn } from '../src/index.js';
import { REPLICA_SEALER } from './support/http-replicas.js';
import { TestRedis } from './support/redis-server.js';

let redis: TestRedis;
let admin: Redis;
beforeAll(async () => {
  redis = await TestRedis.start();
  admin = new Redis(redis.url);
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

async function replica(prefix: string) {
  const client = new Redis(redis.url);
  const state = sharedStateOn(client, prefix);
  state.sealWith(REPLICA_SEALER);
  await state.sessions.ready();
  const open = async (id: string) => {
    const state0 = {
      binding: 'alice|default',
      principalId: 'alice',
      initialized: true,
      logLevel: 'info',
      subscriptions: {},
    };
    expect(
      await state.sessions.open(id, state0 as never, {
        maxSessions: 100,
        maxPerPrincipal: 10,
        idleMs: 60_000,
      }),
    ).toBe('ok');
  };
  return {
    state,
    open,
    async close() {
      await state.close();
      client.disconnect();
    },
  };
}

const progress = (n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});

it('two progress messages sent together reach the log in order when B logged in the same millisecond', async () => {
  const a = await replica('order:');
  const id = 'f'.repeat(32);
  await a.open(id);
  const T = Date.now() + 1000;
  // Replica B's clock gave the millisecond's first id, as A's will.
  await admin.xadd(`order:session:${id}:log`, `${T}-0`, 'm', 'entry of replica B');
  const spy = vi.spyOn(Date, 'now').mockReturnValue(T);
  try {
    // As a session's deliver does: each message appended without waiting for the previous.
    await Promise.all([
      a.state.sessions.append(id, progress(1) as never),
      a.state.sessions.append(id, progress(2) as never),
    ]);
  } finally {
    spy.mockRestore();
  }
  const events = await a.state.sessions.replay(id, '0-0');
  expect(events.map((e) => (e.message as ReturnType<typeof progress>).params.progress)).toEqual([1, 2]);
  await a.close();
});

it("the largest stream id planted in session X's log refuses appends to X only", async () => {
  const a = await replica('poison:');
  const x = 'a'.repeat(32);
  const y = 'b'.repeat(32);
  await a.open(x);
  await a.open(y);
  const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } };
  await a.state.sessions.append(y, note as never);
  await admin.xadd(`poison:session:${x}:log`, '18446744073709551615-18446744073709551615', 'm', 'forged');
  await expect(a.state.sessions.append(x, note as never)).rejects.toThrow(/Session log refused/);
  await a.state.sessions.append(y, note as never);
  expect((await a.state.sessions.replay(y, '0-0')).length).toBe(2);
  // An id far ahead of every clock, but a valid one, does not move this replica's ids either.
  const z = 'c'.repeat(32);
  await a.open(z);
  await admin.xadd(`poison:session:${z}:log`, `${Date.now() + 3_600_000}-0`, 'm', 'forged');
  await expect(a.state.sessions.append(z, note as never)).rejects.toThrow(/Session log refused/);
  await a.state.sessions.append(y, note as never);
  const ids = (await a.state.sessions.replay(y, '0-0')).map((e) => Number(e.id.split('-')[0]));
  expect(Math.max(...ids)).toBeLessThan(Date.now() + 5_000);
  await a.close();
});

it('a Last-Event-ID beyond what Redis takes resumes as with none, instead of failing as if Redis were away', async () => {
  const a = await replica('resume:');
  for (const [id, bad] of [
    ['d'.repeat(32), '99999999999999999999999-0'],
    ['e'.repeat(32), '18446744073709551615-18446744073709551615'],
  ] as const) {
    await a.open(id);
    await a.state.sessions.append(id, progress(1) as never);
    // Resumed from what no stream was handed yet: the one message.
    const claim = await a.state.sessions.claimStream(id, bad);
    expect(claim?.events.map((e) => (e.message as ReturnType<typeof progress>).params.progress)).toEqual([1]);
    expect(await a.state.sessions.replay(id, bad)).toEqual([]);
  }
  await a.close();
});
