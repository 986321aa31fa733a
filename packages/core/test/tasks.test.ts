/** The in-process task store (bounds in count and age, conditional status changes) and ToolContext.startTask. */
import { describe, expect, it } from 'vitest';
import { Layer, MemoryTaskStore, Principal, RateLimitedError, type TaskRecord } from '../src/index.js';

function record(taskId: string, owner = 'alice', createdAt = 0): TaskRecord {
  return {
    taskId,
    owner,
    status: 'working',
    createdAt,
    lastUpdatedAt: createdAt,
    ttlMs: 1_000,
    pollIntervalMs: 10,
  };
}

describe('MemoryTaskStore', () => {
  it('keeps at most maxPerOwner tasks per owner: finished ones make room, running ones refuse', async () => {
    const store = new MemoryTaskStore({ maxPerOwner: 2, now: () => 0 });
    await store.create(record('a'));
    await store.create(record('b'));
    await expect(store.create(record('c'))).rejects.toBeInstanceOf(RateLimitedError);
    // Another owner is not affected.
    await store.create(record('x', 'bob'));
    await store.transition('a', ['working'], { status: 'completed', result: {}, lastUpdatedAt: 1 });
    await store.create(record('c'));
    expect((await store.list('alice')).map((r) => r.taskId)).toEqual(['b', 'c']);
  });

  it('keeps at most maxPerPrincipal tasks over all the owners (sessions) of one principal', async () => {
    const store = new MemoryTaskStore({ maxPerOwner: 2, maxPerPrincipal: 3, now: () => 0 });
    const inSession = (taskId: string, session: string): TaskRecord => ({
      ...record(taskId, `alice/${session}`),
      principal: 'alice',
    });
    await store.create(inSession('a', 's1'));
    await store.create(inSession('b', 's1'));
    await store.create(inSession('c', 's2'));
    // A new session of the same principal does not bring a fresh allowance.
    await expect(store.create(inSession('d', 's3'))).rejects.toBeInstanceOf(RateLimitedError);
    await store.create({ ...record('x', 'bob/s1'), principal: 'bob' });
    await store.transition('a', ['working'], { status: 'completed', result: {}, lastUpdatedAt: 1 });
    await store.create(inSession('d', 's3'));
    expect((await store.list('alice/s1')).map((r) => r.taskId)).toEqual(['b']);
  });

  it('forgets a task once its time to live has passed', async () => {
    let now = 0;
    const store = new MemoryTaskStore({ now: () => now });
    await store.create(record('a'));
    now = 1_000;
    expect(await store.get('a')).toMatchObject({ taskId: 'a' });
    now = 1_001;
    expect(await store.get('a')).toBeUndefined();
  });

  it('changes a status only from the statuses given: a cancelled task stays cancelled', async () => {
    const store = new MemoryTaskStore({ now: () => 0 });
    await store.create(record('a'));
    expect(await store.transition('a', ['working'], { status: 'cancelled', lastUpdatedAt: 1 })).toMatchObject(
      {
        status: 'cancelled',
      },
    );
    expect(
      await store.transition('a', ['working', 'input_required'], { status: 'completed', lastUpdatedAt: 2 }),
    ).toBeUndefined();
    expect(await store.get('a')).toMatchObject({ status: 'cancelled', lastUpdatedAt: 1 });
  });
});

describe('ToolContext.startTask', () => {
  it('starts one task however often it is called, and says false where no task can start', async () => {
    const layer = new Layer();
    let starts = 0;
    const ctx = layer.context(Principal.local(), {
      task: {
        start: async () => {
          starts += 1;
          await new Promise((r) => setTimeout(r, 5));
        },
      },
    });
    expect(await Promise.all([ctx.startTask(), ctx.startTask()])).toEqual([true, true]);
    expect(await ctx.startTask()).toBe(true);
    expect(starts).toBe(1);
    expect(ctx.isTask).toBe(true);
    const plain = layer.context(Principal.local());
    expect(await plain.startTask()).toBe(false);
    expect(plain.isTask).toBe(false);
  });
});
