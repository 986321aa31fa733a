/**
 * The task engine's bookkeeping against a store that fails: a final write refused for a moment
 * (a shared store out of reach) is retried until it lands, one refused for good leaves the task
 * failed instead of `working` for hours, and progress reported in a tight loop reaches the store
 * as a few coalesced writes.
 */
import { Cancellation, MemoryTaskStore, type TaskPatch, type TaskStatus } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { TaskEngine } from '../src/tasks/task-engine.js';

/** A store whose writes can be refused, counting them. */
class FlakyStore extends MemoryTaskStore {
  refuse: (patch: TaskPatch) => boolean = () => false;
  writes = 0;
  override async transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatch) {
    this.writes += 1;
    if (this.refuse(patch)) throw new Error('Redis is not connected');
    return super.transition(taskId, from, patch);
  }
}

const result = { content: [{ type: 'text', text: 'done' }] };

describe('the final write of a task', () => {
  it('is retried when the store refuses it for a moment: the task completes with its result', async () => {
    const store = new FlakyStore();
    const engine = new TaskEngine({ store });
    const task = await engine.create('alice', new Cancellation());
    let refused = 0;
    store.refuse = (patch) => patch.status === 'completed' && ++refused <= 3;
    await engine.finish(task.taskId, { kind: 'result', status: 'completed', result });
    expect(await engine.find(task.taskId, 'alice')).toMatchObject({ status: 'completed', result });
  });

  it('records the task as failed when the outcome is refused for good', async () => {
    const store = new FlakyStore();
    // A clock that moves a minute at each reading: the outcome's time to be retried runs out at once.
    let clock = Date.now();
    const engine = new TaskEngine({ store, now: () => (clock += 60_000) });
    const task = await engine.create('alice', new Cancellation());
    store.refuse = (patch) => patch.status === 'completed';
    await engine.finish(task.taskId, { kind: 'result', status: 'completed', result });
    expect(await engine.find(task.taskId, 'alice')).toMatchObject({
      status: 'failed',
      statusMessage: 'The outcome of the call could not be recorded',
      error: { code: -32603, message: 'Internal error' },
    });
  });

  it('gives up at the time to live and no longer runs the task here', async () => {
    const store = new FlakyStore();
    const engine = new TaskEngine({ store, ttlMs: 400 });
    const task = await engine.create('alice', new Cancellation());
    store.refuse = () => true;
    await expect(engine.finish(task.taskId, { kind: 'result', status: 'completed', result })).rejects.toThrow(
      'Redis is not connected',
    );
    store.refuse = () => false;
    const before = store.writes;
    engine.progress(task.taskId, 'still here');
    await new Promise((r) => setTimeout(r, 20));
    expect(store.writes).toBe(before);
  });
});

describe('progress of a task', () => {
  it('coalesces reports: one write at a time, at most one per poll interval, the latest message last', async () => {
    const store = new FlakyStore();
    const engine = new TaskEngine({ store, pollIntervalMs: 50 });
    const task = await engine.create('alice', new Cancellation());
    for (let i = 1; i <= 1000; i += 1) engine.progress(task.taskId, `step ${i}`);
    await new Promise((r) => setTimeout(r, 120));
    expect(store.writes).toBeLessThanOrEqual(3);
    expect((await engine.find(task.taskId, 'alice')).statusMessage).toBe('step 1000');
    await engine.finish(task.taskId, { kind: 'result', status: 'completed', result });
  });
});
