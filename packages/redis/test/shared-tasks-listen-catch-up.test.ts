/**
 * `notifications/tasks` on a 2026 listen stream survive a lost pub/sub connection: the listener
 * on B follows a task running on A; B's subscriber connection is cut (CLIENT KILL, kept out with
 * maxclients) while the task completes on A, so the change signal never reaches B; once B is
 * back it reads the task again and tells the listener, once. On a real redis-server.
 */
import { expect, it } from 'vitest';
import { Stream } from './support/http-client.js';
import { sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';
import { post, startTaskReplicas, TASKS_META, type TaskReplica } from './support/task-replicas.js';

const env = sharedRedis<TaskReplica>();

type Json = Record<string, unknown>;

const toldTasks = (stream: Stream) =>
  stream.messages.filter((m) => m.method === 'notifications/tasks').map((m) => m.params as Json);

it("a listener on B is told of a task's change made on A while B's pub/sub connection was down", async () => {
  const [a] = await startTaskReplicas(env.redis.url, ['A'], 'task-listen:', 2000);
  const before = await env.subscriberIds();
  const [b] = await startTaskReplicas(env.redis.url, ['B'], 'task-listen:', 2000);
  env.replicas = [a as TaskReplica, b as TaskReplica];
  const bSubscriber = [...(await env.subscriberIds())].find((id) => !before.has(id)) ?? '';

  const created = await post(a as TaskReplica, 'tools/call', { name: 'crunch', arguments: { ms: 400 } });
  const taskId = (created.result as Json).taskId as string;
  const stream = await Stream.open(
    (b as TaskReplica).port,
    {
      authorization: 'Bearer atok',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    {
      jsonrpc: '2.0',
      id: 'l-b',
      method: 'subscriptions/listen',
      params: { notifications: { taskIds: [taskId] }, _meta: TASKS_META },
    },
  );
  await stream.until((frames) => frames.length >= 1);

  await env.admin.config('SET', 'maxclients', '1');
  await env.admin.call('CLIENT', 'KILL', 'ID', bSubscriber);
  let task: Json = {};
  for (let i = 0; i < 200 && task.status !== 'completed'; i++) {
    task = (await post(a as TaskReplica, 'tasks/get', { taskId })).result as Json;
    await sleep(20);
  }
  expect(task.status).toBe('completed');
  await sleep(200);
  expect(toldTasks(stream).some((t) => t.status === 'completed')).toBe(false);

  await env.admin.config('SET', 'maxclients', '10000');
  await stream.until(() => toldTasks(stream).some((t) => t.status === 'completed'), 10_000);
  await sleep(200);
  const told = toldTasks(stream);
  expect(told.filter((t) => t.status === 'completed')).toHaveLength(1);
  expect(told.at(-1)).toMatchObject({
    taskId,
    status: 'completed',
    result: { structuredContent: { crunched: 400 } },
    _meta: { 'io.modelcontextprotocol/subscriptionId': 'l-b' },
  });
  stream.close();
}, 30_000);
