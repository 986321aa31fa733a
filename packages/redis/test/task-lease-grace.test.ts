/**
 * A running task's lease after Redis was away: the lease lapsed during the outage, but the replica
 * running the task is alive and renews it as soon as it is connected again. A reader that finds
 * the lease missing does not fail the task at once: only when it is still missing a renewal
 * period after it was first found missing (a replica that is really gone). On a real redis-server.
 */
import type { TaskRecord } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState, type RedisTaskStore } from '../src/index.js';
import { sharedRedis } from './support/shared-redis.js';

// Each test's shared states are closed after it (sharedRedis's `replicas`).
const env = sharedRedis<RedisSharedState>();
let prefixes = 0;

async function two(leaseMs: number): Promise<{ prefix: string; a: RedisTaskStore; b: RedisTaskStore }> {
  prefixes += 1;
  const prefix = `lease-grace${prefixes}:`;
  const out: RedisTaskStore[] = [];
  for (let i = 0; i < 2; i++) {
    const state = await createRedisSharedState(env.redis.url, { keyPrefix: prefix });
    env.replicas.push(state);
    out.push(state.tasks(createVaultSealer({ key: 'lease-grace-key' }), { leaseMs }).store);
  }
  return { prefix, a: out[0] as RedisTaskStore, b: out[1] as RedisTaskStore };
}

let ids = 0;
function working(): TaskRecord {
  ids += 1;
  const now = Date.now();
  return {
    taskId: `grace-${ids}`,
    owner: 'alice',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a lease that lapsed while its replica lives: the task keeps working once the replica renews', async () => {
  const { prefix, a, b } = await two(600);
  const task = working();
  await a.create(task);
  // The lease lapsed (Redis was away longer than leaseMs): a reader before the next renewal.
  await env.replicas.at(-2)?.client.del(`${prefix}tasks:alive:${a.replica}`);
  expect((await b.get(task.taskId))?.status).toBe('working');
  // A renews within a third of the lease; a read after that still finds the task working.
  await sleep(400);
  expect((await b.get(task.taskId))?.status).toBe('working');
});

it('a replica that is really gone: its task fails once the lease stays missing past a renewal period', async () => {
  const { a, b } = await two(600);
  const task = working();
  await a.create(task);
  await a.close();
  expect((await b.get(task.taskId))?.status).toBe('working');
  await sleep(300);
  expect(await b.get(task.taskId)).toMatchObject({
    status: 'failed',
    statusMessage: 'The replica running this task stopped before it finished',
  });
});

it('renews the lease as soon as the connection is back, before the next periodic renewal', async () => {
  // A lease of a minute: its periodic renewal (every 20 s) does not come within the test.
  const { prefix, a } = await two(60_000);
  await a.create(working());
  const client = env.replicas.at(-2)?.client;
  const other = env.replicas.at(-1)?.client;
  if (!client || !other) throw new Error('no clients');
  const lease = `${prefix}tasks:alive:${a.replica}`;
  await other.del(lease);
  const id = await client.client('ID');
  await other.client('KILL', 'ID', String(id));
  let renewed = 0;
  for (let i = 0; i < 100 && renewed === 0; i += 1) {
    await sleep(20);
    renewed = await other.exists(lease);
  }
  expect(renewed).toBe(1);
});
