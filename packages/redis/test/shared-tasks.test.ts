/**
 * Tasks across three replicas sharing one Redis (2026-07-28 tasks extension, raw requests: the
 * official client 2.4 cannot start a 2026 task). A task started on A is polled to its result on
 * B, cancelled from C (the tool's signal fires on A), answered through B; another principal sees
 * it on no replica; a task whose replica is killed fails once that replica's lease lapses; Redis
 * holds none of its values in clear.
 */
import { createVaultSealer } from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import { createRedisSharedState } from '../src/index.js';
import { call, Stream } from './support/http-client.js';
import { on, VERSION } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';
import {
  listenTo,
  pollUntil,
  post,
  startTaskReplicas,
  type TaskReplica,
  VAULT_KEY,
} from './support/task-replicas.js';

const ALICE = { Authorization: 'Bearer atok' };
const BOB = { Authorization: 'Bearer btok' };
const LEASE_MS = 400;

const env = sharedRedis<TaskReplica>();
let prefixes = 0;

async function three(): Promise<[TaskReplica, TaskReplica, TaskReplica]> {
  prefixes += 1;
  env.replicas = await startTaskReplicas(env.redis.url, ['A', 'B', 'C'], `tasks${prefixes}:`, LEASE_MS);
  return env.replicas as [TaskReplica, TaskReplica, TaskReplica];
}

type Json = Record<string, unknown>;

async function start(replica: TaskReplica, name: string, args: Json): Promise<string> {
  const created = await post(replica, 'tools/call', { name, arguments: args });
  expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
  return (created.result as Json).taskId as string;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !check(); i += 1) await new Promise((r) => setTimeout(r, 20));
}

/** The tasks told on a listen stream so far. */
function told(frames: { data: unknown }[]): Json[] {
  return frames
    .map((f) => f.data as Json)
    .filter((m) => m.method === 'notifications/tasks')
    .map((m) => m.params as Json);
}

describe('tasks shared by three replicas', () => {
  it('a task started on A is polled to its result on B', async () => {
    const [a, b, c] = await three();
    const taskId = await start(a, 'crunch', { ms: 150 });
    const task = await pollUntil(b, taskId, (t) => t.status === 'completed');
    expect(task).toMatchObject({
      taskId,
      status: 'completed',
      result: { structuredContent: { crunched: 150, instance: 'i-0abc123' } },
    });
    expect([a.counts.crunched, b.counts.crunched, c.counts.crunched]).toEqual([1, 0, 0]);
  });

  it('cancelled from C: the tool signal fires on A and every replica shows it cancelled', async () => {
    const [a, b, c] = await three();
    const taskId = await start(a, 'crunch', { ms: 60_000 });
    await pollUntil(b, taskId, (t) => t.status === 'working');
    expect(await post(c, 'tasks/cancel', { taskId })).toMatchObject({ result: {} });
    await until(() => a.counts.stopped === 1);
    expect(a.counts.stopped).toBe(1);
    for (const r of [a, b, c]) {
      expect(((await post(r, 'tasks/get', { taskId })).result as Json).status).toBe('cancelled');
    }
  });

  it('a cancellation whose signal was lost still stops the work on A at its next progress report', async () => {
    const [a, b] = await three();
    const taskId = await start(a, 'crunch', { ms: 60_000, every: 50 });
    await pollUntil(b, taskId, (t) => t.status === 'working');
    // Written straight into the store, as a replica whose signal never reached A would leave it.
    const outsider = await createRedisSharedState(env.redis.url, { keyPrefix: `tasks${prefixes}:` });
    try {
      const store = outsider.tasks(createVaultSealer({ key: VAULT_KEY })).store;
      const patch = { status: 'cancelled' as const, lastUpdatedAt: Date.now() };
      expect(await store.transition(taskId, ['working', 'input_required'], patch)).toBeDefined();
    } finally {
      await outsider.close();
    }
    await until(() => a.counts.stopped === 1);
    expect(a.counts.stopped).toBe(1);
    expect(((await post(a, 'tasks/get', { taskId })).result as Json).status).toBe('cancelled');
  });

  it('a question asked in a task on A is answered through B and the task finishes', async () => {
    const [a, b, c] = await three();
    const taskId = await start(a, 'wipe', { disk: 'sdb' });
    const asking = await pollUntil(c, taskId, (t) => t.status === 'input_required');
    const [key] = Object.keys(asking.inputRequests as Json);
    expect(key).toBeDefined();
    const answered = await post(b, 'tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { confirm: true } } },
    });
    expect(answered).toMatchObject({ result: {} });
    const task = await pollUntil(c, taskId, (t) => t.status === 'completed');
    expect(task).toMatchObject({ result: { structuredContent: { wiped: true, disk: 'sdb' } } });
    expect([a.counts.wipes, b.counts.wipes, c.counts.wipes]).toEqual([1, 0, 0]);
  });

  it("another principal finds alice's task on no replica, and cannot cancel or answer it", async () => {
    const [a, b, c] = await three();
    const taskId = await start(a, 'wipe', { disk: 'sdc' });
    await pollUntil(a, taskId, (t) => t.status === 'input_required');
    const notFound = { code: -32602, message: 'Failed to retrieve task: Task not found' };
    for (const r of [a, b, c]) {
      expect((await post(r, 'tasks/get', { taskId }, BOB)).error).toEqual(notFound);
      expect((await post(r, 'tasks/cancel', { taskId }, BOB)).error).toEqual(notFound);
      expect(
        (await post(r, 'tasks/update', { taskId, inputResponses: { x: { action: 'accept' } } }, BOB)).error,
      ).toEqual(notFound);
    }
    // Still alice's, still waiting for her.
    expect(((await post(b, 'tasks/get', { taskId })).result as Json).status).toBe('input_required');
    expect(a.counts.wipes).toBe(0);
  });

  it('a task whose replica is killed fails once its lease lapses, on every replica left', async () => {
    const [a, b, c] = await three();
    const taskId = await start(a, 'crunch', { ms: 60_000 });
    await pollUntil(b, taskId, (t) => t.status === 'working');
    const onC = await listenTo(c, taskId);
    const killedAt = Date.now();
    await a.kill();
    const task = await pollUntil(b, taskId, (t) => t.status !== 'working');
    const waited = Date.now() - killedAt;
    expect(task).toMatchObject({
      status: 'failed',
      statusMessage: 'The replica running this task stopped before it finished',
      error: { code: -32603 },
    });
    // Not before the lease could lapse, and well within a few leases after.
    expect(waited).toBeGreaterThanOrEqual(LEASE_MS / 2);
    expect(waited).toBeLessThan(LEASE_MS * 10);
    expect(((await post(c, 'tasks/get', { taskId })).result as Json).status).toBe('failed');
    // Nobody runs it to announce the failure: the replica that noticed does, to every listener.
    await onC.until((frames) => told(frames).some((t) => t.status === 'failed'));
    onC.close();
    expect(told(onC.frames).at(-1)).toMatchObject({ taskId, status: 'failed' });
  });

  it('a listener on C hears each change of a task running on A, ending with its result', async () => {
    const [a, , c] = await three();
    const taskId = await start(a, 'crunch', { ms: 200 });
    const stream = await listenTo(c, taskId);
    await stream.until((frames) => told(frames).some((t) => t.status === 'completed'));
    stream.close();
    expect(stream.messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });
    expect(told(stream.frames).at(-1)).toMatchObject({
      taskId,
      status: 'completed',
      result: { structuredContent: { crunched: 200 } },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'l-c' },
    });
  });

  it('2025-11-25: a task started on A asks through the stream C holds, is answered via B, fetched on C', async () => {
    const [a, b, c] = await three();
    const rpc = async (replica: TaskReplica, session: string, message: Json) =>
      (await call(replica.port, { headers: on(session), body: { jsonrpc: '2.0', ...message } })).body as Json;
    const opened = await call(a.port, {
      headers: ALICE,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: VERSION,
          capabilities: { elicitation: {} },
          clientInfo: { name: 't', version: '1' },
        },
      },
    });
    const session = String(opened.headers['mcp-session-id']);
    await rpc(b, session, { method: 'notifications/initialized' });
    const stream = await Stream.open(c.port, on(session));
    const created = await rpc(a, session, {
      id: 2,
      method: 'tools/call',
      params: { name: 'wipe', arguments: { disk: 'sdd' }, task: { ttl: 60_000 } },
    });
    const { taskId } = (created.result as { task: { taskId: string } }).task;
    const [question] = (await stream.until((f) => f.length >= 1)).map((f) => f.data as Json);
    expect(question).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Wipe sdd?', _meta: { 'io.modelcontextprotocol/related-task': { taskId } } },
    });
    expect(
      ((await rpc(b, session, { id: 3, method: 'tasks/get', params: { taskId } })).result as Json).status,
    ).toBe('input_required');
    const answered = await call(b.port, {
      headers: on(session),
      body: { jsonrpc: '2.0', id: question?.id, result: { action: 'accept', content: { confirm: true } } },
    });
    expect(answered.status).toBe(202);
    // tasks/result on C waits for the task running on A to finish.
    const result = await rpc(c, session, { id: 4, method: 'tasks/result', params: { taskId } });
    expect(result.result).toMatchObject({
      structuredContent: { wiped: true, disk: 'sdd' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    const listed = await rpc(b, session, { id: 5, method: 'tasks/list', params: {} });
    expect((listed.result as { tasks: Json[] }).tasks).toEqual([
      expect.objectContaining({ taskId, status: 'completed' }),
    ]);
    expect([a.counts.wipes, b.counts.wipes, c.counts.wipes]).toEqual([1, 0, 0]);
    stream.close();
  });

  it('Redis holds the task records and signals sealed: no value of the call in clear', async () => {
    const [a, b] = await three();
    const monitor = a.state.client.duplicate();
    const seen: string[] = [];
    await monitor.connect();
    await monitor.psubscribe('tasks*');
    monitor.on('pmessage', (_pattern: string, _channel: string, message: string) => seen.push(message));
    const taskId = await start(a, 'crunch', { ms: 50 });
    await pollUntil(b, taskId, (t) => t.status === 'completed');
    const prefix = `tasks${prefixes}:`;
    let dump = '';
    for (const key of await b.state.client.keys(`${prefix}task*`)) {
      dump += key;
      const type = await b.state.client.type(key);
      if (type === 'hash') dump += JSON.stringify(await b.state.client.hgetall(key));
      if (type === 'zset') dump += JSON.stringify(await b.state.client.zrange(key, '0', '-1'));
    }
    expect(dump).toContain(taskId);
    expect(seen.length).toBeGreaterThan(0);
    const everything = dump + seen.join('\n');
    for (const needle of ['i-0abc123', '123456789012', 'alice', 'crunch'])
      expect(everything).not.toContain(needle);
    monitor.disconnect();
  });
});
