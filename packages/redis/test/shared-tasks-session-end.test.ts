/**
 * A 2025-11-25 session's tasks end with the session, on whichever replica runs them: the session
 * is ended on B (DELETE) while its task works on A, and A's work stops; nobody could have read or
 * cancelled that task any more.
 */
import { expect, it } from 'vitest';
import { call } from './support/http-client.js';
import { on, openSession, sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';
import { startTaskReplicas, type TaskReplica } from './support/task-replicas.js';

const env = sharedRedis<TaskReplica>();

it("ending a session on B cancels its task running on A, and A's work stops", async () => {
  env.replicas = await startTaskReplicas(env.redis.url, ['A', 'B'], 'session-end:', 5_000);
  const [a, b] = env.replicas as [TaskReplica, TaskReplica];
  const session = await openSession(a);
  const created = await call(a.port, {
    headers: on(session),
    body: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'crunch', arguments: { ms: 600_000 }, task: { ttl: 60_000 } },
    },
  });
  expect(created.body).toMatchObject({ result: { task: { status: 'working' } } });
  const ended = await call(b.port, { method: 'DELETE', headers: on(session) });
  expect(ended.status).toBe(200);
  for (let i = 0; i < 200 && a.counts.stopped === 0; i += 1) await sleep(10);
  expect(a.counts.stopped).toBe(1);
}, 30_000);
