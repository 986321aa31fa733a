/**
 * Tasks across replicas when Redis goes away: task requests fail at once with the retryable
 * shared-state error naming tasks (never a stall, never an answer from a stale copy), and
 * replicas serve tasks again by themselves once Redis is back. A Redis restarted without its
 * data has forgotten the tasks it held: they are unknown (-32602), as an expired task is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRedis } from './support/redis-server.js';
import { post, startTaskReplicas, type TaskReplica } from './support/task-replicas.js';

let redis: TestRedis;
let replicas: TaskReplica[] = [];

beforeAll(async () => {
  redis = await TestRedis.start();
  replicas = await startTaskReplicas(redis.url, ['A', 'B'], 'task-faults:', 2000);
});
afterAll(async () => {
  for (const r of replicas) await r.close();
  await redis?.stop();
});

type Json = Record<string, unknown>;

describe('tasks when Redis goes away', () => {
  it('fails task requests with the retryable error, then serves tasks again once Redis is back', async () => {
    const [a, b] = replicas as [TaskReplica, TaskReplica];
    const created = await post(a, 'tools/call', { name: 'crunch', arguments: { ms: 30_000 } });
    const taskId = (created.result as Json).taskId as string;
    await redis.pause();

    const started = Date.now();
    const refused = await post(b, 'tasks/get', { taskId });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(refused.error).toMatchObject({
      code: -32603,
      message: expect.stringMatching(/^Shared state unavailable: Redis \(tasks\) .*retry shortly$/),
      data: { retryable: true, state: 'tasks' },
    });
    // A new task cannot be recorded either: the tool's error result, and the tool did not run.
    const ran = a.counts.crunched;
    const notStarted = await post(a, 'tools/call', { name: 'crunch', arguments: { ms: 0 } });
    expect(notStarted.result).toMatchObject({
      isError: true,
      _meta: { 'cloudg/error_code': 'shared_state_unavailable', 'cloudg/error_data': { state: 'tasks' } },
    });
    expect(a.counts.crunched).toBe(ran);

    await redis.resume();
    // Restarted without its data: the task it held is gone, as an expired one is.
    let gone: Json = {};
    for (let i = 0; i < 100; i++) {
      gone = await post(b, 'tasks/get', { taskId });
      if (!(gone.error as Json | undefined)?.data) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(gone.error).toEqual({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    const again = await post(a, 'tools/call', { name: 'crunch', arguments: { ms: 10 } });
    const againId = (again.result as Json).taskId as string;
    let task: Json = {};
    for (let i = 0; i < 100 && task.status !== 'completed'; i++) {
      task = (await post(b, 'tasks/get', { taskId: againId })).result as Json;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(task).toMatchObject({ status: 'completed', result: { structuredContent: { crunched: 10 } } });
  });
});
