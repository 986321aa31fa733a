/**
 * RedisTaskStore against the guarantees of core's TaskStore port, on a real redis-server: a
 * record read from another replica's store as soon as `create` resolves, a conditional
 * transition that exactly one of two racing replicas wins, an owner's count and the overall
 * count bounded (finished tasks make room, running ones never), expiry by `createdAt + ttlMs`, and `list` oldest first.
 */
import { RateLimitedError, type TaskRecord } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState, type RedisTaskStore } from '../src/index.js';
import { sharedRedis } from './support/shared-redis.js';

// Each test's shared states are closed after it (sharedRedis's `replicas`).
const env = sharedRedis<RedisSharedState>();
let prefixes = 0;

async function stores(
  n: number,
  maxPerOwner = 100,
  maxTasks = 10_000,
  maxPerPrincipal = 1_000,
): Promise<RedisTaskStore[]> {
  prefixes += 1;
  const out: RedisTaskStore[] = [];
  for (let i = 0; i < n; i++) {
    const state = await createRedisSharedState(env.redis.url, { keyPrefix: `task-store${prefixes}:` });
    env.replicas.push(state);
    const sealer = createVaultSealer({ key: 'task-store-key' });
    out.push(state.tasks(sealer, { maxPerOwner, maxTasks, maxPerPrincipal }).store);
  }
  return out;
}

let ids = 0;
function record(owner: string, fields: Partial<TaskRecord> = {}): TaskRecord {
  ids += 1;
  const now = Date.now();
  return {
    taskId: `task-${ids}`,
    owner,
    status: 'working',
    createdAt: now + ids,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    ...fields,
  };
}

describe('RedisTaskStore', () => {
  it('a created record is read from another replica, and only one of two racing transitions applies', async () => {
    const [a, b] = (await stores(2)) as [RedisTaskStore, RedisTaskStore];
    const r = record('alice');
    await a.create(r);
    expect(await b.get(r.taskId)).toEqual(r);
    const [cancelled, completed] = await Promise.all([
      a.transition(r.taskId, ['working', 'input_required'], { status: 'cancelled', lastUpdatedAt: 1 }),
      b.transition(r.taskId, ['working', 'input_required'], {
        status: 'completed',
        result: { content: [] },
        lastUpdatedAt: 2,
      }),
    ]);
    expect([cancelled, completed].filter((x) => x !== undefined)).toHaveLength(1);
    const final = await a.get(r.taskId);
    expect(final?.status).toBe((cancelled ?? completed)?.status);
    // Finished: never changes again, whichever replica writes.
    expect(await b.transition(r.taskId, ['working'], { status: 'failed', lastUpdatedAt: 3 })).toBeUndefined();
  });

  it("bounds an owner's tasks: a finished one makes room, running ones are never dropped", async () => {
    const [a, b] = (await stores(2, 2)) as [RedisTaskStore, RedisTaskStore];
    const first = record('bob');
    const second = record('bob');
    await a.create(first);
    await b.create(second);
    await expect(a.create(record('bob'))).rejects.toBeInstanceOf(RateLimitedError);
    await a.create(record('carol'));
    await b.transition(first.taskId, ['working'], { status: 'completed', lastUpdatedAt: 1 });
    const third = record('bob');
    await a.create(third);
    expect(await b.get(first.taskId)).toBeUndefined();
    expect((await b.list('bob')).map((t) => t.taskId)).toEqual([second.taskId, third.taskId]);
  });

  it("bounds a principal's tasks over all its sessions: a new session brings no fresh allowance", async () => {
    const [a, b] = (await stores(2, 2, 10_000, 3)) as [RedisTaskStore, RedisTaskStore];
    const inSession = (session: string) => record(`ivan/${session}`, { principal: 'ivan' });
    const first = inSession('s1');
    await a.create(first);
    await b.create(inSession('s1'));
    await a.create(inSession('s2'));
    await expect(b.create(inSession('s3'))).rejects.toBeInstanceOf(RateLimitedError);
    await a.create(record('judy/s1', { principal: 'judy' }));
    await b.transition(first.taskId, ['working'], { status: 'completed', lastUpdatedAt: 1 });
    const fourth = inSession('s3');
    await b.create(fourth);
    expect(await a.get(first.taskId)).toBeUndefined();
    expect((await a.list('ivan/s1')).length).toBe(1);
    expect((await a.list('ivan/s3')).map((t) => t.taskId)).toEqual([fourth.taskId]);
  });

  it('bounds the tasks kept overall, whoever owns them: a finished one makes room', async () => {
    const [a, b] = (await stores(2, 100, 3)) as [RedisTaskStore, RedisTaskStore];
    const first = record('erin');
    await a.create(first);
    await b.create(record('frank'));
    await a.create(record('grace'));
    await expect(b.create(record('heidi'))).rejects.toBeInstanceOf(RateLimitedError);
    await a.transition(first.taskId, ['working'], { status: 'failed', lastUpdatedAt: 1 });
    const heidi = record('heidi');
    await b.create(heidi);
    expect(await a.get(first.taskId)).toBeUndefined();
    expect(await a.list('erin')).toEqual([]);
    expect((await a.list('heidi')).map((t) => t.taskId)).toEqual([heidi.taskId]);
  });

  it('forgets a record past createdAt + ttlMs', async () => {
    const [a] = (await stores(1)) as [RedisTaskStore];
    const r = record('dave', { ttlMs: 100 });
    await a.create(r);
    expect(await a.get(r.taskId)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await a.get(r.taskId)).toBeUndefined();
    expect(await a.list('dave')).toEqual([]);
  });
});
