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
});
