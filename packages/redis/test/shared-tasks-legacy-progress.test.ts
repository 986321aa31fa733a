/**
 * A 2025-11-25 task's progress across replicas: the task runs on B, its progress reaches the
 * session's stream held on A tagged with the related task (as that revision requires of every
 * task-related message), and nothing of it is written to Redis in clear on the way.
 */
import { expect, it } from 'vitest';
import { call, Stream } from './support/http-client.js';
import { on, openSession } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';
import { startTaskReplicas, type TaskReplica } from './support/task-replicas.js';

const env = sharedRedis<TaskReplica>();

it('progress of a task on B reaches the stream on A with its related task, and is sealed in Redis', async () => {
  env.replicas = await startTaskReplicas(env.redis.url, ['A', 'B'], 'legacy-progress:', 5_000);
  const [a, b] = env.replicas as [TaskReplica, TaskReplica];
  const session = await openSession(a);
  const stream = await Stream.open(a.port, on(session));
  const created = await call(b.port, {
    headers: on(session),
    body: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'crunch',
        arguments: { ms: 300, every: 100 },
        task: { ttl: 60_000 },
        _meta: { progressToken: 'p1' },
      },
    },
  });
  const { taskId } = (created.body as { result: { task: { taskId: string } } }).result.task;
  const frames = await stream.until((f) => f.length >= 2);
  expect(frames.map((f) => f.data)).toContainEqual({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: {
      progressToken: 'p1',
      progress: 1,
      total: 2,
      message: 'halfway through i-0abc123',
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    },
  });
  const client = a.state.client;
  const clear: string[] = [];
  for (const key of await client.keys('legacy-progress:*')) {
    const type = await client.type(key);
    const value =
      type === 'stream'
        ? JSON.stringify(await client.xrange(key, '-', '+'))
        : type === 'hash'
          ? JSON.stringify(await client.hgetall(key))
          : type === 'string'
            ? String(await client.get(key))
            : '';
    if (value.includes('i-0abc123')) clear.push(key);
  }
  expect(clear).toEqual([]);
  stream.close();
}, 30_000);
