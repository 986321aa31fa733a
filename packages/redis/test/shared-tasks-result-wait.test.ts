/**
 * The handshake era's one `tasks/result` waiter per task and session holds across replicas, on
 * a real redis-server: a later wait on B supersedes the one waiting on A exactly as on one
 * replica (-32600), even when A's pub/sub connection is cut (A's renewal notices); a replica that
 * dies leaves no claim behind once its lease lapses; a wait whose claim Redis cannot record fails
 * with the retryable shared-state error instead of waiting per replica.
 */
import { expect, it } from 'vitest';
import { type Answer, call } from './support/http-client.js';
import { on, openSession, sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';
import { startTaskReplicas, type TaskReplica } from './support/task-replicas.js';

const LEASE_MS = 600;
const SUPERSEDED = { code: -32600, message: 'Superseded by a later tasks/result for the same task' };

const env = sharedRedis<TaskReplica>();
let prefixes = 0;

/** Replicas A and B (started one after the other), and the id of A's subscriber connection. */
async function two(): Promise<{ prefix: string; a: TaskReplica; b: TaskReplica; aSubscriber: string }> {
  prefixes += 1;
  const prefix = `result-wait${prefixes}:`;
  const before = await env.subscriberIds();
  const [a] = await startTaskReplicas(env.redis.url, ['A'], prefix, LEASE_MS);
  const aSubscriber = [...(await env.subscriberIds())].find((id) => !before.has(id)) ?? '';
  const [b] = await startTaskReplicas(env.redis.url, ['B'], prefix, LEASE_MS);
  env.replicas = [a as TaskReplica, b as TaskReplica];
  return { prefix, a: a as TaskReplica, b: b as TaskReplica, aSubscriber };
}

let nextId = 10;
function rpc(replica: TaskReplica, session: string, method: string, params: Record<string, unknown>) {
  nextId += 1;
  return call(replica.port, { headers: on(session), body: { jsonrpc: '2.0', id: nextId, method, params } });
}

async function startTask(replica: TaskReplica, session: string, ms: number): Promise<string> {
  const created = await rpc(replica, session, 'tools/call', {
    name: 'crunch',
    arguments: { ms },
    task: { ttl: 60_000 },
  });
  expect(created.body).toMatchObject({ result: { task: { status: 'working' } } });
  return (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
}

/** Until the task's waiter key holds a claim (the wait on that replica is in place). */
async function claimed(prefix: string, taskId: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const token = await env.admin.get(`${prefix}tasks:waiter:${taskId}`);
    if (token) return token;
    await sleep(10);
  }
  throw new Error('the wait was never claimed');
}

/** Whether the task's waiter key is (or, within two seconds, becomes) empty. */
async function released(prefix: string, taskId: string): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if ((await env.admin.get(`${prefix}tasks:waiter:${taskId}`)) === null) return true;
    await sleep(10);
  }
  return false;
}

const errorOf = (answer: Answer) => (answer.body as { error?: unknown }).error;

it('a later tasks/result on B supersedes the one waiting on A, as on one replica; B gets the result', async () => {
  const { prefix, a, b } = await two();
  const session = await openSession(a);
  const taskId = await startTask(a, session, 3000);
  const onA = rpc(a, session, 'tasks/result', { taskId });
  const first = await claimed(prefix, taskId);
  const onB = rpc(b, session, 'tasks/result', { taskId });
  expect(errorOf(await onA)).toEqual(SUPERSEDED);
  // Superseded while the task still works, not when it ended.
  const now = await rpc(b, session, 'tasks/get', { taskId });
  expect(now.body).toMatchObject({ result: { status: 'working' } });
  expect(await env.admin.get(`${prefix}tasks:waiter:${taskId}`)).not.toBe(first);
  const answer = await onB;
  expect(answer.body).toMatchObject({
    result: {
      structuredContent: { crunched: 3000 },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    },
  });
  // The wait that ended gives its claim up; the release follows the response, so it may land a
  // moment after the answer on a busy machine.
  expect(await released(prefix, taskId)).toBe(true);
}, 30_000);

it("with A's pub/sub connection cut, A's wait still ends at its next renewal", async () => {
  const { prefix, a, b, aSubscriber } = await two();
  const session = await openSession(b);
  const taskId = await startTask(b, session, 600_000);
  const onA = rpc(a, session, 'tasks/result', { taskId });
  await claimed(prefix, taskId);
  // A hears nothing on pub/sub now, and cannot reconnect its subscriber.
  await env.admin.config('SET', 'maxclients', '1');
  await env.admin.call('CLIENT', 'KILL', 'ID', aSubscriber);
  const started = Date.now();
  const onB = rpc(b, session, 'tasks/result', { taskId });
  expect(errorOf(await onA)).toEqual(SUPERSEDED);
  // Within a renewal (a third of the lease), with some room for a loaded machine.
  expect(Date.now() - started).toBeLessThan(LEASE_MS * 4);
  await env.admin.config('SET', 'maxclients', '10000');
  await rpc(a, session, 'tasks/cancel', { taskId });
  expect(errorOf(await onB)).toMatchObject({
    code: -32602,
    message: 'The task was cancelled and has no result',
  });
}, 30_000);

it('a waiting replica that dies leaves no claim once its lease lapses; the next wait is answered', async () => {
  const { prefix, a, b } = await two();
  const session = await openSession(b);
  const taskId = await startTask(b, session, 1500);
  const onA = rpc(a, session, 'tasks/result', { taskId }).catch(() => undefined);
  await claimed(prefix, taskId);
  await a.kill();
  await onA;
  for (let i = 0; i < 100 && (await env.admin.exists(`${prefix}tasks:waiter:${taskId}`)); i++)
    await sleep(20);
  expect(await env.admin.exists(`${prefix}tasks:waiter:${taskId}`)).toBe(0);
  const answer = await rpc(b, session, 'tasks/result', { taskId });
  expect(answer.body).toMatchObject({ result: { structuredContent: { crunched: 1500 } } });
}, 30_000);

it('a wait whose claim Redis cannot record fails with the retryable shared-state error', async () => {
  const { prefix, a } = await two();
  const session = await openSession(a);
  const taskId = await startTask(a, session, 600_000);
  // The claim's key is of the wrong type: Redis refuses the claim, while the task reads fine.
  await env.admin.hset(`${prefix}tasks:waiter:${taskId}`, 'x', '1');
  const refused = await rpc(a, session, 'tasks/result', { taskId });
  expect(errorOf(refused)).toMatchObject({
    code: -32603,
    message: expect.stringMatching(/^Shared state unavailable: Redis \(tasks\) .*retry shortly$/),
    data: { retryable: true, state: 'tasks' },
  });
  await env.admin.del(`${prefix}tasks:waiter:${taskId}`);
  const waiting = rpc(a, session, 'tasks/result', { taskId });
  await claimed(prefix, taskId);
  await rpc(a, session, 'tasks/cancel', { taskId });
  expect(errorOf(await waiting)).toMatchObject({ code: -32602 });
}, 30_000);
