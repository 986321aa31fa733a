/**
 * Stateless HTTP (`--stateless`, 2025-11-25) serves task calls: each request is a session of its
 * own, its tasks are its principal's, and in one process two `tasks/result` requests for one
 * task both wait (the one waiter per task is a per-session rule, and no two stateless requests
 * share a session). With the task relay in Redis the rule is the same, on one replica or two:
 * neither request supersedes the other, on a real redis-server.
 */
import { expect, it } from 'vitest';
import { call } from './support/http-client.js';
import { sleep, VERSION } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';
import { startTaskReplicas, type TaskReplica } from './support/task-replicas.js';

const env = sharedRedis<TaskReplica>();

const headers = { authorization: 'Bearer atok', 'mcp-protocol-version': VERSION };
let nextId = 1;
const rpc = (replica: TaskReplica, method: string, params: Record<string, unknown>) => {
  nextId += 1;
  return call(replica.port, { headers, body: { jsonrpc: '2.0', id: nextId, method, params } });
};

it('two stateless tasks/result for one task, on one replica and on another, all get the result', async () => {
  env.replicas = await startTaskReplicas(env.redis.url, ['A', 'B'], 'stateless:', 600, { stateless: true });
  const [a, b] = env.replicas as [TaskReplica, TaskReplica];
  const created = await rpc(a, 'tools/call', {
    name: 'crunch',
    arguments: { ms: 600 },
    task: { ttl: 60_000 },
  });
  expect(created.body).toMatchObject({ result: { task: { status: 'working' } } });
  const { taskId } = (created.body as { result: { task: { taskId: string } } }).result.task;
  const first = rpc(a, 'tasks/result', { taskId });
  await sleep(150);
  const onB = rpc(b, 'tasks/result', { taskId });
  const againOnA = rpc(a, 'tasks/result', { taskId });
  for (const answer of await Promise.all([first, onB, againOnA])) {
    expect(answer.body).toMatchObject({ result: { structuredContent: { crunched: 600 } } });
  }
  // Nothing was claimed for them in Redis.
  expect(await env.admin.keys('stateless:tasks:waiter:*')).toEqual([]);
});
