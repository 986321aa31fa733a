/**
 * Someone who can write to Redis (but has no vault key) copies the task signals the replicas
 * sealed and publishes them again, against replicas sharing 2026 tasks in one real redis-server:
 * an answer copied while the task asks its next question under the same key, the status changes
 * told before, a cancellation, a supersede notice of the one `tasks/result` waiter. None of them
 * is taken again, by the replicas that heard the originals nor by one started since.
 */
import type { TaskSignal } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisSharedState, type RedisSharedState, type RedisTaskRelay } from '../src/index.js';
import { TaskWaits } from '../src/task-waits.js';
import type { Stream } from './support/http-client.js';
import { sleep } from './support/mcp.js';
import { TestRedis } from './support/redis-server.js';
import {
  listenTo,
  pollUntil,
  post,
  startTaskReplicas,
  type TaskReplica,
  VAULT_KEY,
} from './support/task-replicas.js';

const LEASE_MS = 3000;

let redis: TestRedis;
let replicas: TaskReplica[] = [];
let states: RedisSharedState[] = [];
let clients: Redis[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const r of replicas) await r.close();
  for (const s of states) await s.close();
  for (const c of clients) c.disconnect();
  replicas = [];
  states = [];
  clients = [];
});
afterAll(async () => {
  await redis?.stop();
});

function prefix(): string {
  prefixes += 1;
  return `task-replay${prefixes}:`;
}

async function start(names: string[], keyPrefix: string): Promise<TaskReplica[]> {
  const started = await startTaskReplicas(redis.url, names, keyPrefix, LEASE_MS);
  replicas.push(...started);
  return started;
}

/** The attacker's connection, and everything published on the task channel from now on. */
async function attacker(
  keyPrefix: string,
): Promise<{ r: Redis; heard: string[]; replay: () => Promise<void> }> {
  const r = new Redis(redis.url);
  const listener = new Redis(redis.url);
  clients.push(r, listener);
  const heard: string[] = [];
  listener.on('message', (_channel: string, message: string) => heard.push(message));
  await listener.subscribe(`${keyPrefix}tasks:signals`);
  const replay = async () => {
    for (const copy of [...heard]) await r.publish(`${keyPrefix}tasks:signals`, copy);
  };
  return { r, heard, replay };
}

/** A replica's task relay on its own, hearing the channel like the servers' do. */
async function relayOn(keyPrefix: string): Promise<RedisTaskRelay> {
  const state = await createRedisSharedState(redis.url, { keyPrefix });
  states.push(state);
  const { relay } = state.tasks(createVaultSealer({ key: VAULT_KEY }), { leaseMs: LEASE_MS });
  await relay.ready();
  return relay;
}

type Json = Record<string, unknown>;

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !check(); i += 1) await sleep(20);
  expect(check()).toBe(true);
}

/** What the task asks now under `confirm`. */
function asking(task: Json): unknown {
  const requests = task.inputRequests as { confirm?: { params?: { message?: unknown } } } | undefined;
  return requests?.confirm?.params?.message;
}

function told(stream: Stream): Json[] {
  return stream.frames
    .map((f) => f.data as Json)
    .filter((m) => m.method === 'notifications/tasks')
    .map((m) => m.params as Json);
}

describe('task signals played again by someone who can write to Redis', { timeout: 60_000 }, () => {
  it('an answer copied while the task asks again under the same key answers nothing; old changes reach no listener', async () => {
    const p = prefix();
    const [a, b, c] = (await start(['A', 'B', 'C'], p)) as [TaskReplica, TaskReplica, TaskReplica];
    const { heard, replay } = await attacker(p);
    const created = await post(a, 'tools/call', { name: 'erase', arguments: { disks: ['sdb', 'sdc'] } });
    const { taskId } = created.result as { taskId: string };
    const onC = await listenTo(c, taskId);
    await pollUntil(b, taskId, (t) => asking(t) === 'Erase sdb?');

    // Answered through B: the answer travels to A sealed, and is copied on its way.
    const accept = { confirm: { action: 'accept', content: { confirm: true } } };
    expect(await post(b, 'tasks/update', { taskId, inputResponses: accept })).toMatchObject({ result: {} });
    const next = await pollUntil(b, taskId, (t) => asking(t) === 'Erase sdc?');
    await onC.until((frames) => frames.some((f) => JSON.stringify(f.data).includes('Erase sdc?')));
    expect(a.counts.wipes).toBe(1);
    const toldOnC = told(onC).length;

    // Every copy again: A heard the answer (and its question has a new id now); C heard the
    // changes. The task still waits for its second answer, and C's listener hears nothing new.
    await replay();
    await sleep(300);
    expect(a.counts.wipes).toBe(1);
    expect((await post(c, 'tasks/get', { taskId })).result).toEqual(next);
    expect(told(onC)).toHaveLength(toldOnC);

    // A replica started since never heard the originals: it takes no copy either.
    await sleep(1100);
    const [d] = (await start(['D'], p)) as [TaskReplica];
    const onD = await listenTo(d, taskId);
    await replay();
    await sleep(300);
    expect(told(onD)).toEqual([]);
    expect(a.counts.wipes).toBe(1);

    // The person declines the second disk: only the first was erased.
    const decline = { confirm: { action: 'decline' } };
    expect(await post(d, 'tasks/update', { taskId, inputResponses: decline })).toMatchObject({ result: {} });
    const done = await pollUntil(c, taskId, (t) => t.status === 'completed');
    expect(done).toMatchObject({ result: { structuredContent: { erased: ['sdb'] } } });
    expect(heard.length).toBeGreaterThan(0);
    onC.close();
    onD.close();
  });

  it('a cancellation copied is heard once, and by no replica started since', async () => {
    const p = prefix();
    const [a, , c] = (await start(['A', 'B', 'C'], p)) as [TaskReplica, TaskReplica, TaskReplica];
    const observer = await relayOn(p);
    const cancels: TaskSignal[] = [];
    observer.listen((signal) => {
      if (signal.kind === 'cancel') cancels.push(signal);
    });
    const { heard, replay } = await attacker(p);
    const created = await post(a, 'tools/call', { name: 'crunch', arguments: { ms: 60_000 } });
    const { taskId } = created.result as { taskId: string };
    expect(await post(c, 'tasks/cancel', { taskId })).toMatchObject({ result: {} });
    await until(() => a.counts.stopped === 1 && cancels.length === 1);
    expect(cancels).toEqual([{ kind: 'cancel', taskId }]);

    await replay();
    await sleep(300);
    expect(cancels).toHaveLength(1);

    await sleep(1100);
    const late = await relayOn(p);
    const heardLate: TaskSignal[] = [];
    late.listen((signal) => heardLate.push(signal));
    await replay();
    await sleep(300);
    expect(heardLate).toEqual([]);
    expect(cancels).toHaveLength(1);
    expect(heard.length).toBeGreaterThan(0);
  });

  it('a supersede notice copied reaches no wait again', async () => {
    const p = prefix();
    const [x, y] = [await relayOn(p), await relayOn(p)];
    const { heard, replay } = await attacker(p);
    const told = vi.spyOn(TaskWaits.prototype, 'heard');
    let superseded = 0;
    await x.claimWait('task-1', () => {
      superseded += 1;
    });
    // Y's claim replaces X's: X is told on the channel.
    const release = await y.claimWait('task-1', () => {});
    await until(() => superseded === 1 && told.mock.calls.length === 1);
    expect(heard.some((m) => m.includes('"w":'))).toBe(true);

    await replay();
    await sleep(300);
    expect(told.mock.calls).toHaveLength(1);
    expect(superseded).toBe(1);
    release();
  });
});
