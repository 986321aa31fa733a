/**
 * What keeping tasks in Redis costs per task operation, against the in-process MemoryTaskStore:
 * `create` (a tool call becoming a task), `get` (each `tasks/get` poll, with a finished task
 * holding a result of about 40 KB, as a `find_assets` page does) and `transition` (a progress
 * report or the outcome). Each Redis operation is one script, plus a seal or an open of the
 * record with the vault key. Also what a 2025 `tasks/result` adds to claim the one wait per task
 * across replicas: `claimWait` (one script), and one that supersedes a wait held by another
 * replica (the script, then a sealed message to it). Prints each run and the median and spread
 * of the runs.
 *   pnpm --filter @cloudg/redis bench:tasks [-- --runs 5]
 */
import { randomUUID } from 'node:crypto';
import { MemoryTaskStore, type TaskRecord, type TaskRelay, type TaskStore } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { createRedisSharedState } from '../src/index.js';
import { TestRedis } from '../test/support/redis-server.js';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const OPS = 500;

const RESULT = {
  content: [{ type: 'text', text: 'x'.repeat(100) }],
  structuredContent: {
    items: Array.from({ length: 200 }, (_, i) => ({
      id: `arn:aws:ec2:eu-west-1:123456789012:instance/i-${i.toString(16).padStart(17, '0')}`,
      name: `web-${i}`,
      tags: { env: 'prod', team: 'platform' },
    })),
  },
};

function record(owner: string): TaskRecord {
  const now = Date.now();
  return {
    taskId: randomUUID(),
    owner,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 3_600_000,
    pollIntervalMs: 1000,
  };
}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function measure(store: TaskStore): Promise<{ create: number; get: number; transition: number }> {
  const times = { create: [] as number[], get: [] as number[], transition: [] as number[] };
  for (let i = 0; i < OPS; i++) {
    // Owners change every 50 tasks, so no owner reaches the bound.
    const r = record(`owner-${Math.floor(i / 50)}`);
    let t = performance.now();
    await store.create(r);
    times.create.push(performance.now() - t);
    t = performance.now();
    await store.transition(r.taskId, ['working'], {
      statusMessage: '1/2: halfway',
      lastUpdatedAt: Date.now(),
    });
    times.transition.push(performance.now() - t);
    await store.transition(r.taskId, ['working'], {
      status: 'completed',
      result: RESULT,
      lastUpdatedAt: Date.now(),
    });
    t = performance.now();
    await store.get(r.taskId);
    times.get.push(performance.now() - t);
  }
  return { create: p50(times.create), get: p50(times.get), transition: p50(times.transition) };
}

async function measureWaits(a: TaskRelay, b: TaskRelay): Promise<{ claim: number; supersede: number }> {
  const times = { claim: [] as number[], supersede: [] as number[] };
  const never = () => {};
  for (let i = 0; i < OPS; i++) {
    const taskId = randomUUID();
    let t = performance.now();
    await a.claimWait?.(taskId, never);
    times.claim.push(performance.now() - t);
    t = performance.now();
    const release = await b.claimWait?.(taskId, never);
    times.supersede.push(performance.now() - t);
    release?.();
  }
  return { claim: p50(times.claim), supersede: p50(times.supersede) };
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(3);
  return `${fmt(sorted[Math.floor(sorted.length / 2)] ?? 0)} ms (${fmt(sorted[0] ?? 0)} to ${fmt(sorted.at(-1) ?? 0)})`;
}

const redis = await TestRedis.start();
const state = await createRedisSharedState(redis.url, { keyPrefix: 'bench-tasks:' });
const shared = state.tasks(createVaultSealer({ key: 'bench-task-key' })).store;
// A second replica, for a wait that supersedes another replica's.
const other = await createRedisSharedState(redis.url, { keyPrefix: 'bench-tasks:' });
const relays = [state, other].map((s) => s.tasks(createVaultSealer({ key: 'bench-task-key' })).relay);
const runs: { memory: Awaited<ReturnType<typeof measure>>; redis: Awaited<ReturnType<typeof measure>> }[] =
  [];
const waits: Awaited<ReturnType<typeof measureWaits>>[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const memory = await measure(new MemoryTaskStore({ maxPerOwner: 1000 }));
    const inRedis = await measure(shared);
    runs.push({ memory, redis: inRedis });
    console.log(
      `run ${run}: p50 create ${inRedis.create.toFixed(3)} ms (memory ${memory.create.toFixed(3)}), ` +
        `get ${inRedis.get.toFixed(3)} ms (memory ${memory.get.toFixed(3)}), ` +
        `transition ${inRedis.transition.toFixed(3)} ms (memory ${memory.transition.toFixed(3)})`,
    );
    const wait = await measureWaits(relays[0] as TaskRelay, relays[1] as TaskRelay);
    waits.push(wait);
    console.log(
      `run ${run}: p50 claimWait ${wait.claim.toFixed(3)} ms, superseding another replica's ${wait.supersede.toFixed(3)} ms`,
    );
  }
  for (const op of ['create', 'get', 'transition'] as const) {
    console.log(
      `${op}: Redis p50 ${summary(runs.map((r) => r.redis[op]))}; in process ${summary(runs.map((r) => r.memory[op]))}`,
    );
  }
  console.log(`claimWait: Redis p50 ${summary(waits.map((w) => w.claim))}`);
  console.log(`claimWait superseding another replica's: Redis p50 ${summary(waits.map((w) => w.supersede))}`);
} finally {
  await other.close();
  await state.close();
  await redis.stop();
}
