/**
 * Tasks in memory, in both eras: a call polled to completion with its result inlined (2026) or
 * fetched with `tasks/result` (2025-11-25), cancellation that really stops the tool, tasks that
 * another principal cannot see, questions a task waits on, and the extension's refusals.
 */
import {
  allowAllPolicy,
  MemoryTaskStore,
  type PipelineRun,
  type PolicyPort,
  Principal,
  type TransformPipeline,
} from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { McpProtocolServer } from '../src/index.js';
import type { JsonRpcResponse } from '../src/jsonrpc/messages.js';
import { initialize, initialized, modern, req } from './support/rpc.js';
import { buildTaskLayer, type TaskState } from './support/task-layer.js';

const TASKS = {
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
const TASKS_AND_ELICITATION = {
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

type Meta = Record<string, unknown>;

function setup(state: TaskState = { stopped: 0, wipes: 0 }, policy?: PolicyPort) {
  const server = new McpProtocolServer(buildTaskLayer(state, policy) as never, { taskPollIntervalMs: 10 });
  const session = server.createSession({ transport: 'memory', principal: Principal.local() });
  let id = 0;
  const call = async (
    method: string,
    params: Record<string, unknown>,
    meta: Meta = TASKS,
    principal?: Principal,
  ) => {
    id += 1;
    const response = (await session.handle(
      modern(id, method, params, meta),
      principal ? { principal } : {},
    )) as JsonRpcResponse;
    return response;
  };
  const result = async (method: string, params: Record<string, unknown>, meta: Meta = TASKS) => {
    const response = await call(method, params, meta);
    if ('error' in response) throw new Error(JSON.stringify(response.error));
    return response.result as Record<string, unknown>;
  };
  const until = async (
    taskId: unknown,
    done: (task: Record<string, unknown>) => boolean,
    meta: Meta = TASKS,
  ) => {
    for (let i = 0; i < 500; i += 1) {
      const task = await result('tasks/get', { taskId }, meta);
      if (done(task)) return task;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('the task did not get there');
  };
  return { server, session, call, result, until, state };
}

const terminal = (task: Record<string, unknown>) =>
  ['completed', 'failed', 'cancelled'].includes(String(task.status));

describe('tasks on 2026-07-28 (the tasks extension)', () => {
  it('announces the extension and answers a task-capable call with a task, polled to completion', async () => {
    const { result, until } = setup();
    const discover = await result('server/discover', {});
    expect(discover.capabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
    expect(discover.capabilities).not.toHaveProperty('tasks');

    const created = await result('tools/call', { name: 'crunch', arguments: { ms: 30 } });
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 10_800_000,
      pollIntervalMs: 10,
    });
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created).not.toHaveProperty('result');
    const done = await until(created.taskId, terminal);
    expect(done).toMatchObject({
      resultType: 'complete',
      taskId: created.taskId,
      status: 'completed',
      result: { structuredContent: { crunched: 30, cluster: 'alpha' }, isError: false },
    });
    expect(Date.parse(String(done.lastUpdatedAt))).toBeGreaterThanOrEqual(Date.parse(String(done.createdAt)));
  });

  it('runs the call directly for a client that does not declare the extension on the request', async () => {
    const { result } = setup();
    const direct = await result('tools/call', { name: 'crunch', arguments: { ms: 0 } }, {});
    expect(direct).toMatchObject({
      resultType: 'complete',
      structuredContent: { crunched: 0, cluster: 'alpha' },
    });
    expect(direct).not.toHaveProperty('taskId');
  });

  it('refuses the task methods to a request without the extension (-32021)', async () => {
    const { call } = setup();
    const refused = await call('tasks/get', { taskId: 'x' }, {});
    expect(refused).toMatchObject({
      error: {
        code: -32021,
        data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      },
    });
  });

  it('cancels a running task: the status is cancelled at once and the tool stops through its signal', async () => {
    const { result, until, state } = setup();
    const created = await result('tools/call', { name: 'crunch', arguments: { ms: 60_000 } });
    const ack = await result('tasks/cancel', { taskId: created.taskId });
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    const task = await until(created.taskId, terminal);
    expect(task.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 20));
    expect(state.stopped).toBe(1);
    // Cancelling again is acknowledged the same way.
    expect(await result('tasks/cancel', { taskId: created.taskId })).toMatchObject({
      resultType: 'complete',
    });
  });

  it("keeps a principal's task from every other principal: the same error as an unknown task", async () => {
    const { result, call } = setup();
    const created = await result('tools/call', { name: 'crunch', arguments: { ms: 10 } });
    const intruder = new Principal({ id: 'mallory' });
    const unknown = await call('tasks/get', { taskId: 'no-such-task' });
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const foreign = await call(method, { taskId: created.taskId }, TASKS, intruder);
      expect(foreign).toMatchObject({
        error: { code: -32602, message: 'Failed to retrieve task: Task not found' },
      });
      expect((foreign as { error: unknown }).error).toEqual((unknown as { error: unknown }).error);
    }
    const update = await call(
      'tasks/update',
      { taskId: created.taskId, inputResponses: {} },
      TASKS,
      intruder,
    );
    expect(update).toMatchObject({ error: { code: -32602 } });
  });

  it('asks inside the task and runs nothing when the person declines', async () => {
    const { result, until, state } = setup();
    const created = await result(
      'tools/call',
      { name: 'wipe', arguments: { disk: 'sda' } },
      TASKS_AND_ELICITATION,
    );
    const waiting = await until(created.taskId, (t) => t.status === 'input_required', TASKS_AND_ELICITATION);
    const [key] = Object.keys(waiting.inputRequests as object);
    expect((waiting.inputRequests as Record<string, unknown>)[key as string]).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Wipe sda?' },
    });
    await result('tasks/update', {
      taskId: created.taskId,
      inputResponses: { [key as string]: { action: 'decline' } },
    });
    const done = await until(created.taskId, terminal);
    expect(done.result).toMatchObject({ structuredContent: { wiped: false, wipes: 0 } });
    expect(state.wipes).toBe(0);
  });

  it("passes a task's result, status message and questions through the caller's output pipeline, as a direct call's", async () => {
    // A policy that shows the cluster `alpha` to this caller as `p-1` (a pseudonym).
    const pseudonym: TransformPipeline = {
      isEmpty: false,
      run: (value: unknown): PipelineRun => ({
        value: JSON.parse(JSON.stringify(value).replaceAll('alpha', 'p-1').replaceAll('sda', 'p-2')),
        report: {},
      }),
    };
    const { result, until } = setup(undefined, { ...allowAllPolicy, outputPipeline: () => pseudonym });
    const direct = await result('tools/call', { name: 'crunch', arguments: { ms: 0 } }, {});
    const created = await result('tools/call', { name: 'crunch', arguments: { ms: 200 } });
    const working = await until(created.taskId, (t) => t.statusMessage !== undefined);
    expect(working.statusMessage).toBe('1/2: halfway through p-1');
    const done = await until(created.taskId, terminal);
    expect((done.result as Record<string, unknown>).structuredContent).toEqual({
      crunched: 200,
      cluster: 'p-1',
    });
    expect((direct.structuredContent as Record<string, unknown>).cluster).toBe('p-1');
    const wipe = await result(
      'tools/call',
      { name: 'wipe', arguments: { disk: 'sda' } },
      TASKS_AND_ELICITATION,
    );
    const asking = await until(wipe.taskId, (t) => t.status === 'input_required', TASKS_AND_ELICITATION);
    expect(JSON.stringify(asking.inputRequests)).toContain('Wipe p-2?');
    expect(JSON.stringify(asking.inputRequests)).not.toContain('sda');
  });

  it('reports progress of a running task as its status message', async () => {
    const { result, until } = setup();
    const created = await result('tools/call', { name: 'crunch', arguments: { ms: 200 } });
    const working = await until(created.taskId, (t) => t.statusMessage !== undefined);
    expect(working).toMatchObject({ status: 'working', statusMessage: '1/2: halfway through alpha' });
  });
});

describe('experimental tasks on 2025-11-25', () => {
  async function legacy(state: TaskState = { stopped: 0, wipes: 0 }) {
    const server = new McpProtocolServer(buildTaskLayer(state) as never, { taskPollIntervalMs: 10 });
    const sent: Record<string, unknown>[] = [];
    const session = server.createSession({
      transport: 'memory',
      principal: Principal.local(),
      send: (message) => sent.push(message as unknown as Record<string, unknown>),
    });
    const init = (await session.handle(initialize(0))) as { result: Record<string, unknown> };
    await session.handle(initialized);
    let id = 0;
    const call = async (method: string, params: Record<string, unknown> = {}) => {
      id += 1;
      return (await session.handle(req(id, method, params))) as JsonRpcResponse & {
        result: Record<string, unknown>;
      };
    };
    return { init, call, sent, session, state };
  }

  it('announces tasks, marks task-capable tools, and serves a task to tasks/result', async () => {
    const { init, call } = await legacy();
    expect(init.result.capabilities).toMatchObject({
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    const tools = (await call('tools/list')).result.tools as Record<string, unknown>[];
    expect(tools.find((t) => t.name === 'crunch')).toMatchObject({ execution: { taskSupport: 'optional' } });
    expect(tools.find((t) => t.name === 'quick')).not.toHaveProperty('execution');

    const created = (
      await call('tools/call', { name: 'crunch', arguments: { ms: 20 }, task: { ttl: 60_000 } })
    ).result as { task: Record<string, unknown> };
    expect(created.task).toMatchObject({ status: 'working', ttl: 10_800_000, pollInterval: 10 });
    const taskId = created.task.taskId;
    const final = await call('tasks/result', { taskId });
    expect(final.result).toMatchObject({
      structuredContent: { crunched: 20, cluster: 'alpha' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect((await call('tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'completed' });
    const listed = (await call('tasks/list')).result.tasks as Record<string, unknown>[];
    expect(listed.map((t) => t.taskId)).toEqual([taskId]);
    // 2025-11-25: a finished task cannot be cancelled (-32602).
    expect(await call('tasks/cancel', { taskId })).toMatchObject({ error: { code: -32602 } });
  });

  it("keeps the request's progress token for the task: progress reaches the session's channel, tagged with the task", async () => {
    const { call, sent } = await legacy();
    const created = (
      await call('tools/call', {
        name: 'crunch',
        arguments: { ms: 10 },
        task: {},
        _meta: { progressToken: 'p-7' },
      })
    ).result as { task: { taskId: string } };
    await call('tasks/result', { taskId: created.task.taskId });
    expect(sent).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: {
        progressToken: 'p-7',
        progress: 1,
        total: 2,
        message: 'halfway through alpha',
        _meta: { 'io.modelcontextprotocol/related-task': { taskId: created.task.taskId } },
      },
    });
  });

  it('refuses a task for a tool that never runs as one (-32601)', async () => {
    const { call } = await legacy();
    expect(await call('tools/call', { name: 'quick', arguments: {}, task: {} })).toMatchObject({
      error: { code: -32601 },
    });
  });

  it('cancels a running task and stops the tool', async () => {
    const { call, state } = await legacy();
    const created = (await call('tools/call', { name: 'crunch', arguments: { ms: 60_000 }, task: {} }))
      .result as {
      task: { taskId: string };
    };
    const cancelled = await call('tasks/cancel', { taskId: created.task.taskId });
    expect(cancelled.result).toMatchObject({ taskId: created.task.taskId, status: 'cancelled' });
    await new Promise((r) => setTimeout(r, 20));
    expect(state.stopped).toBe(1);
  });
});

describe('task status notifications on a listen stream', () => {
  it("acknowledges the caller's own tasks and sends each change as tasks/get shows it", async () => {
    const server = new McpProtocolServer(buildTaskLayer() as never, { taskPollIntervalMs: 10 });
    const sent: Record<string, unknown>[] = [];
    const session = server.createSession({
      transport: 'memory',
      principal: Principal.local(),
      send: (message) => sent.push(message as unknown as Record<string, unknown>),
    });
    const created = (await session.handle(
      modern(1, 'tools/call', { name: 'crunch', arguments: { ms: 30 } }, TASKS),
    )) as unknown as { result: { taskId: string } };
    const { taskId } = created.result;
    const listening = session.handle(
      modern(2, 'subscriptions/listen', { notifications: { taskIds: [taskId, 'someone-elses'] } }, TASKS),
    );
    await new Promise((r) => setTimeout(r, 100));
    server.endListens();
    await listening;
    expect(sent[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });
    const changes = sent.filter((m) => m.method === 'notifications/tasks');
    expect(changes.at(-1)).toMatchObject({
      params: {
        taskId,
        status: 'completed',
        result: { structuredContent: { crunched: 30 } },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 2 },
      },
    });
    server.close();
  });

  it('refuses more than 100 task ids on one listen request (-32602)', async () => {
    const { call } = setup();
    const ids = Array.from({ length: 101 }, (_, i) => `task-${i}`);
    expect(await call('subscriptions/listen', { notifications: { taskIds: ids } })).toMatchObject({
      error: { code: -32602, message: 'taskIds may name at most 100 tasks' },
    });
  });

  it('refuses task ids on subscriptions/listen without the extension (-32021)', async () => {
    const { call } = setup();
    const refused = await call('subscriptions/listen', { notifications: { taskIds: ['x'] } }, {});
    expect(refused).toMatchObject({
      error: {
        code: -32021,
        data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      },
    });
  });
});

describe('the age bound of tasks', () => {
  it('forgets a task past its time to live and stops the work still running for it', async () => {
    const state = { stopped: 0, wipes: 0 };
    const server = new McpProtocolServer(buildTaskLayer(state) as never, { taskTtlMs: 50 });
    const session = server.createSession({ transport: 'memory', principal: Principal.local() });
    const created = (await session.handle(
      modern(1, 'tools/call', { name: 'crunch', arguments: { ms: 60_000 } }, TASKS),
    )) as unknown as { result: { taskId: string; ttlMs: number } };
    expect(created.result.ttlMs).toBe(50);
    await new Promise((r) => setTimeout(r, 120));
    expect(
      await session.handle(modern(2, 'tasks/get', { taskId: created.result.taskId }, TASKS)),
    ).toMatchObject({
      error: { code: -32602, message: 'Failed to retrieve task: Task not found' },
    });
    expect(state.stopped).toBe(1);
    server.close();
  });
});

describe('2025-11-25 tasks of unauthenticated clients', () => {
  it('belong to their session: another session of the same anonymous principal neither lists nor reads them', async () => {
    const server = new McpProtocolServer(buildTaskLayer() as never, { taskPollIntervalMs: 10 });
    const open = async (id: string) => {
      const session = server.createSession({ transport: 'http', principal: Principal.anonymous(), id });
      await session.handle(initialize(0));
      await session.handle(initialized);
      return session;
    };
    const first = await open('session-a');
    const second = await open('session-b');
    const created = (await first.handle(
      req(1, 'tools/call', { name: 'crunch', arguments: { ms: 5 }, task: {} }),
    )) as unknown as { result: { task: { taskId: string } } };
    const { taskId } = created.result.task;
    const mine = (await first.handle(req(2, 'tasks/list'))) as unknown as { result: { tasks: unknown[] } };
    expect(mine.result.tasks).toHaveLength(1);
    const theirs = (await second.handle(req(2, 'tasks/list'))) as unknown as { result: { tasks: unknown[] } };
    expect(theirs.result.tasks).toEqual([]);
    expect(await second.handle(req(3, 'tasks/get', { taskId }))).toMatchObject({ error: { code: -32602 } });
    server.close();
  });

  it('count against their principal too: a new session does not bring a fresh allowance', async () => {
    const server = new McpProtocolServer(buildTaskLayer() as never, {
      taskPollIntervalMs: 10,
      taskStore: new MemoryTaskStore({ maxPerOwner: 100, maxPerPrincipal: 1 }),
    });
    const open = async (id: string) => {
      const session = server.createSession({ transport: 'http', principal: Principal.anonymous(), id });
      await session.handle(initialize(0));
      await session.handle(initialized);
      return session;
    };
    const call = req(1, 'tools/call', { name: 'crunch', arguments: { ms: 60_000 }, task: {} });
    expect(await (await open('session-a')).handle(call)).toMatchObject({
      result: { task: { status: 'working' } },
    });
    expect(await (await open('session-b')).handle(call)).toMatchObject({ error: { code: -31029 } });
    server.close();
  });
});
