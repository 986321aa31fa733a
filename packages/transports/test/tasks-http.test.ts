/**
 * The tasks extension over Streamable HTTP (2026-07-28), raw: a task created by one POST and
 * polled by others, `Mcp-Name` carrying the task id (checked against the body, -32020 when it
 * differs), and a task that another caller's token cannot reach.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { buildTaskLayer } from './support/task-layer.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

let nextId = 0;
async function post(
  url: string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  nextId += 1;
  const name = typeof params.name === 'string' ? params.name : params.taskId;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId, method, params: { ...params, _meta: META } }),
  });
  const text = await res.text();
  const data = text.startsWith('{') ? JSON.parse(text) : JSON.parse(text.split('data: ').pop() ?? '{}');
  return { status: res.status, data };
}

describe('the tasks extension over HTTP', () => {
  it('creates a task in one request and serves it, polled, in the next ones', async () => {
    running = await serveHttp(buildTaskLayer() as never, { port: 0, taskPollIntervalMs: 20 });
    const created = await post(running.url, 'tools/call', { name: 'crunch', arguments: { ms: 30 } });
    expect(created.data.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.data.result.taskId as string;
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 100; i += 1) {
      task = (await post(running.url, 'tasks/get', { taskId })).data.result;
      if (task.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(task).toMatchObject({
      status: 'completed',
      result: { structuredContent: { crunched: 30, cluster: 'alpha' } },
    });
  });

  it('refuses a tasks/get whose Mcp-Name is not the task id (-32020, HTTP 400)', async () => {
    running = await serveHttp(buildTaskLayer() as never, { port: 0 });
    const created = await post(running.url, 'tools/call', { name: 'crunch', arguments: { ms: 0 } });
    const taskId = created.data.result.taskId as string;
    const refused = await post(running.url, 'tasks/get', { taskId }, { 'Mcp-Name': 'another-task' });
    expect(refused.status).toBe(400);
    expect(refused.data.error.code).toBe(-32020);
  });

  it("keeps one token's task from another token", async () => {
    running = await serveHttp(buildTaskLayer() as never, {
      port: 0,
      authTokens: ['alice-token:viewer:alice', 'bob-token:viewer:bob'],
    });
    const alice = { Authorization: 'Bearer alice-token' };
    const bob = { Authorization: 'Bearer bob-token' };
    const created = await post(running.url, 'tools/call', { name: 'crunch', arguments: { ms: 10 } }, alice);
    const taskId = created.data.result.taskId as string;
    expect((await post(running.url, 'tasks/get', { taskId }, alice)).data.result.taskId).toBe(taskId);
    const foreign = await post(running.url, 'tasks/get', { taskId }, bob);
    expect(foreign.data.error).toEqual({ code: -32602, message: 'Failed to retrieve task: Task not found' });
  });

  it('keeps a task from the same person under other roles, as a session is (get, update, cancel)', async () => {
    running = await serveHttp(buildTaskLayer() as never, {
      port: 0,
      authTokens: ['lead-token:lead:alice', 'analyst-token:analyst:alice'],
    });
    const lead = { Authorization: 'Bearer lead-token' };
    const analyst = { Authorization: 'Bearer analyst-token' };
    const created = await post(
      running.url,
      'tools/call',
      { name: 'crunch', arguments: { ms: 60_000 } },
      lead,
    );
    const taskId = created.data.result.taskId as string;
    const notFound = { code: -32602, message: 'Failed to retrieve task: Task not found' };
    expect((await post(running.url, 'tasks/get', { taskId }, analyst)).data.error).toEqual(notFound);
    const update = await post(running.url, 'tasks/update', { taskId, inputResponses: {} }, analyst);
    expect(update.data.error).toEqual(notFound);
    expect((await post(running.url, 'tasks/cancel', { taskId }, analyst)).data.error).toEqual(notFound);
    expect((await post(running.url, 'tasks/get', { taskId }, lead)).data.result.status).toBe('working');
    await post(running.url, 'tasks/cancel', { taskId }, lead);
  });
});

/** A 2025-11-25 request over HTTP; answers given as SSE are read from their last event. */
async function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const data =
    text === ''
      ? {}
      : text.startsWith('{')
        ? JSON.parse(text)
        : JSON.parse(text.split('data: ').pop() ?? '{}');
  return { status: res.status, data, session: res.headers.get('mcp-session-id') };
}

async function openSession(url: string, token: string): Promise<Record<string, string>> {
  const auth = { Authorization: `Bearer ${token}` };
  const init = await rpc(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    auth,
  );
  const headers = { ...auth, 'Mcp-Session-Id': String(init.session), 'MCP-Protocol-Version': '2025-11-25' };
  await rpc(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return headers;
}

describe('2025-11-25 tasks/result over HTTP', () => {
  it("waits without an admission slot, one request per task and session: others' calls still go through", async () => {
    running = await serveHttp(buildTaskLayer() as never, {
      port: 0,
      maxInFlightRequests: 2,
      maxQueueWaitMs: 100,
      authTokens: ['mallory-token:viewer:mallory', 'alice-token:viewer:alice'],
    });
    const url = running.url;
    const mallory = await openSession(url, 'mallory-token');
    const alice = await openSession(url, 'alice-token');
    const start = async (id: number) => {
      const created = await rpc(
        url,
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'crunch', arguments: { ms: 600_000 }, task: { ttl: 60_000 } },
        },
        mallory,
      );
      return created.data.result.task.taskId as string;
    };
    // Two long tasks, each waited on: as many waiting requests as the server has slots.
    const first = await start(2);
    const second = await start(3);
    const waits: Promise<Awaited<ReturnType<typeof rpc>>>[] = [];
    for (const [i, taskId] of [first, first, first, second].entries()) {
      waits.push(
        rpc(url, { jsonrpc: '2.0', id: 100 + i, method: 'tasks/result', params: { taskId } }, mallory),
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    const other = await rpc(url, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, alice);
    expect(other.status).toBe(200);
    expect(other.data.result.tools.length).toBeGreaterThan(0);
    // Each later wait on the first task replaced the one before it.
    for (const earlier of await Promise.all(waits.slice(0, 2))) {
      expect(earlier.data.error).toEqual({
        code: -32600,
        message: 'Superseded by a later tasks/result for the same task',
      });
    }
    for (const taskId of [first, second]) {
      await rpc(url, { jsonrpc: '2.0', id: 5, method: 'tasks/cancel', params: { taskId } }, mallory);
    }
    for (const last of await Promise.all(waits.slice(2))) {
      expect(last.data.error).toMatchObject({
        code: -32602,
        message: 'The task was cancelled and has no result',
      });
    }
  }, 20_000);

  it("cancels a session's tasks when the session is ended: nobody could reach them any more", async () => {
    const state = { stopped: 0, wipes: 0 };
    running = await serveHttp(buildTaskLayer(state) as never, {
      port: 0,
      authTokens: ['alice-token:viewer:alice'],
    });
    const url = running.url;
    const alice = await openSession(url, 'alice-token');
    const created = await rpc(
      url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'crunch', arguments: { ms: 600_000 }, task: {} },
      },
      alice,
    );
    expect(created.data.result.task.status).toBe('working');
    const ended = await fetch(url, { method: 'DELETE', headers: alice });
    expect(ended.status).toBe(200);
    for (let i = 0; i < 100 && state.stopped === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(state.stopped).toBe(1);
  });

  it('keeps a session whose tasks/result is still waiting past the idle timeout, and so its task', async () => {
    running = await serveHttp(buildTaskLayer() as never, {
      port: 0,
      sessionIdleTimeoutMs: 200,
      authTokens: ['alice-token:viewer:alice'],
    });
    const url = running.url;
    const alice = await openSession(url, 'alice-token');
    const created = await rpc(
      url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'crunch', arguments: { ms: 600_000 }, task: {} },
      },
      alice,
    );
    const taskId = created.data.result.task.taskId as string;
    const waiting = rpc(url, { jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } }, alice);
    // The idle sweep runs every second: two of them pass while the request waits.
    await new Promise((r) => setTimeout(r, 2_200));
    const polled = await rpc(url, { jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { taskId } }, alice);
    expect(polled.data.result).toMatchObject({ taskId, status: 'working' });
    await rpc(url, { jsonrpc: '2.0', id: 5, method: 'tasks/cancel', params: { taskId } }, alice);
    expect((await waiting).data.error).toMatchObject({ code: -32602 });
  }, 20_000);
});
