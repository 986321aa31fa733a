/**
 * RedisTaskStore against someone who can write to Redis but has no vault key, on a real
 * redis-server: an earlier sealed body of the task written back under the current version does
 * not roll the task back, a forged clear status changes nothing a replica reads, and each open
 * question has an id of its own that only the replica asking it takes an answer for, once.
 */
import type { TaskRecord } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState, type RedisTaskStore } from '../src/index.js';
import { sharedRedis } from './support/shared-redis.js';

// Each test's shared states are closed after it (sharedRedis's `replicas`).
const env = sharedRedis<RedisSharedState>();
let prefixes = 0;

/** Two replicas' stores on one prefix, and the key of a task's hash. */
async function stores(): Promise<{
  a: RedisTaskStore;
  b: RedisTaskStore;
  state: RedisSharedState;
  key: (id: string) => string;
}> {
  prefixes += 1;
  const prefix = `task-sealed${prefixes}:`;
  const out: RedisTaskStore[] = [];
  let first: RedisSharedState | undefined;
  for (let i = 0; i < 2; i++) {
    const state = await createRedisSharedState(env.redis.url, { keyPrefix: prefix });
    env.replicas.push(state);
    first ??= state;
    out.push(state.tasks(createVaultSealer({ key: 'task-sealed-key' })).store);
  }
  return {
    a: out[0] as RedisTaskStore,
    b: out[1] as RedisTaskStore,
    state: first as RedisSharedState,
    key: (id) => `${prefix}task:${id}`,
  };
}

let ids = 0;
function record(): TaskRecord {
  ids += 1;
  const now = Date.now();
  return {
    taskId: `sealed-${ids}`,
    owner: 'alice',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
  };
}

const ACTIVE = ['working', 'input_required'] as const;
const question = (message: string) => ({ method: 'elicitation/create', params: { message } });

describe('RedisTaskStore and someone who can write to Redis', () => {
  it('an earlier sealed body put back under the current version does not roll the task back', async () => {
    const { a, b, state, key } = await stores();
    const r = record();
    await a.create(r);
    await a.transition(r.taskId, ACTIVE, {
      status: 'input_required',
      inputRequests: { confirm: question('Wipe sdb?') },
      lastUpdatedAt: 1,
    });
    const earlier = (await state.client.hget(key(r.taskId), 'b')) as string;
    await a.transition(r.taskId, ACTIVE, {
      status: 'completed',
      inputRequests: undefined,
      result: { content: [] },
      lastUpdatedAt: 2,
    });

    // The forged clear status says nothing to a replica: the sealed record does.
    await state.client.hset(key(r.taskId), 's', 'working');
    expect((await b.get(r.taskId))?.status).toBe('completed');
    expect(await b.transition(r.taskId, ACTIVE, { status: 'cancelled', lastUpdatedAt: 3 })).toBeUndefined();

    // The body of the questions, under the version the completion wrote: not this task's now.
    await state.client.hset(key(r.taskId), 's', 'input_required', 'b', earlier);
    expect(await b.get(r.taskId)).toBeUndefined();
    expect(await a.get(r.taskId)).toBeUndefined();
    expect(await b.list('alice')).toEqual([]);
    expect(await b.transition(r.taskId, ACTIVE, { status: 'working', lastUpdatedAt: 4 })).toBeUndefined();
    expect(await b.questionIds(r.taskId)).toBeUndefined();
  });

  it('each question asked has an id of its own; only the asking replica takes an answer for it, once', async () => {
    const { a, b } = await stores();
    const r = record();
    await a.create(r);
    const ask = (message: string) =>
      a.transition(r.taskId, ACTIVE, {
        status: 'input_required',
        inputRequests: { confirm: question(message) },
        lastUpdatedAt: Date.now(),
      });
    await ask('Erase sdb?');
    const first = (await b.questionIds(r.taskId)) ?? {};
    expect(Object.keys(first)).toEqual(['confirm']);
    // Progress while the question is open keeps its id.
    await a.transition(r.taskId, ACTIVE, { statusMessage: 'still here', lastUpdatedAt: Date.now() });
    expect(await b.questionIds(r.taskId)).toEqual(first);

    expect(b.takeAnswered(r.taskId, first)).toEqual([]);
    expect(a.takeAnswered(r.taskId, { confirm: 'another id' })).toEqual([]);
    expect(a.takeAnswered(r.taskId, first)).toEqual(['confirm']);
    expect(a.takeAnswered(r.taskId, first)).toEqual([]);

    // Answered, then asked again under the same key: a new id, and the old one answers nothing.
    await a.transition(r.taskId, ACTIVE, {
      status: 'working',
      inputRequests: undefined,
      lastUpdatedAt: Date.now(),
    });
    expect(await b.questionIds(r.taskId)).toEqual({});
    await ask('Erase sdc?');
    const second = (await b.questionIds(r.taskId)) ?? {};
    expect(second.confirm).toBeDefined();
    expect(second.confirm).not.toBe(first.confirm);
    expect(a.takeAnswered(r.taskId, first)).toEqual([]);
    expect(a.takeAnswered(r.taskId, second)).toEqual(['confirm']);
  });
});
