/**
 * Tasks with the official client (`@modelcontextprotocol/client` 2.4) over Streamable HTTP and
 * stdio. The client drives the 2025-11-25 experimental tasks through its generic `request`
 * (`tools/call` with `task`, `tasks/get`, `tasks/result`, `tasks/cancel`), and answers the
 * confirmation a task asks for with its elicitation handler. On 2026-07-28 the client 2.4 can
 * declare the tasks extension and send `tasks/get` and `tasks/cancel`, but refuses a
 * `CreateTaskResult` ("Unsupported result type 'task' for tools/call"): the task is started here
 * by a raw request and then followed with the client. Without the extension it gets ordinary
 * results. The extension as a whole is covered by test/tasks.test.ts, test/tasks-http.test.ts and
 * the conformance suite.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { NODE_ARGS, PACKAGE_DIR } from './support/child.js';
import { buildTaskLayer, type TaskState } from './support/task-layer.js';

let client: Client | undefined;
let running: RunningHttpServer | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await running?.close();
  running = undefined;
});

function tasksClient(mode: 'legacy' | 'auto', answer: { action: 'accept' | 'decline' }): Client {
  const c = new Client(
    { name: 'cloudg-tasks-test', version: '1.0.0' },
    { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
  );
  c.setRequestHandler('elicitation/create', async () =>
    answer.action === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' },
  );
  return c;
}

type Transport = 'http' | 'stdio';
const TASKS = 'io.modelcontextprotocol/tasks';

/** What the client accepts back from each task request (its own schemas are not exported). */
const Task = z.looseObject({ taskId: z.string(), status: z.string() });
const CreateTask = z.looseObject({ task: Task });
const AnyResult = z.looseObject({});

/** A `tools/call` with `task`: the handle. */
async function startTask(c: Client, name: string, args: Record<string, unknown>) {
  const created = await c.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
    CreateTask,
  );
  return created.task;
}

async function connect(c: Client, transport: Transport, state: TaskState): Promise<void> {
  if (transport === 'http') {
    running = await serveHttp(buildTaskLayer(state) as never, { port: 0, taskPollIntervalMs: 20 });
    await c.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    return;
  }
  await c.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: NODE_ARGS,
      cwd: PACKAGE_DIR,
      env: { ...(process.env as Record<string, string>), TEST_LAYER: 'tasks' },
      stderr: 'pipe',
    }),
  );
}

describe.each(['http', 'stdio'] as const)('the official client with tasks over %s', (transport) => {
  it('2025-11-25: a task polled to completion, its result from tasks/result', async () => {
    client = tasksClient('legacy', { action: 'accept' });
    await connect(client, transport, { stopped: 0, wipes: 0 });
    const task = await startTask(client, 'crunch', { ms: 50 });
    expect(task.status).toBe('working');
    let status = task.status;
    for (let i = 0; i < 100 && status === 'working'; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, Task)).status;
    }
    expect(status).toBe('completed');
    const result = await client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      AnyResult,
    );
    expect(result.structuredContent).toEqual({ crunched: 50, cluster: 'alpha' });
  });

  it('2025-11-25: a task asks the person; declined, it runs nothing; accepted, it runs once', async () => {
    const answer: { action: 'accept' | 'decline' } = { action: 'decline' };
    const state = { stopped: 0, wipes: 0 };
    client = tasksClient('legacy', answer);
    await connect(client, transport, state);
    const wipe = async () => {
      const task = await startTask(client as Client, 'wipe', { disk: 'sda' });
      return (client as Client).request(
        { method: 'tasks/result', params: { taskId: task.taskId } },
        AnyResult,
      );
    };
    expect((await wipe()).structuredContent).toEqual({ wiped: false, wipes: 0 });
    answer.action = 'accept';
    expect((await wipe()).structuredContent).toEqual({ wiped: true, wipes: 1 });
    if (transport === 'http') expect(state.wipes).toBe(1);
  });

  it('2025-11-25: cancelling a running task stops the tool', async () => {
    const state = { stopped: 0, wipes: 0 };
    client = tasksClient('legacy', { action: 'accept' });
    await connect(client, transport, state);
    const task = await startTask(client, 'crunch', { ms: 60_000 });
    const cancelled = await client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, Task);
    expect(cancelled.status).toBe('cancelled');
    if (transport === 'http') {
      await new Promise((r) => setTimeout(r, 50));
      expect(state.stopped).toBe(1);
    }
  });

  it('2026-07-28 without the extension: a task-capable tool answers directly', async () => {
    client = tasksClient('auto', { action: 'accept' });
    await connect(client, transport, { stopped: 0, wipes: 0 });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: 'crunch', arguments: { ms: 5 } });
    expect(result.structuredContent).toEqual({ crunched: 5, cluster: 'alpha' });
  });
});

describe('the official client 2.4 on 2026-07-28 with the tasks extension, over HTTP', () => {
  it('follows a task to completion with tasks/get, and cancels another one', async () => {
    const state = { stopped: 0, wipes: 0 };
    running = await serveHttp(buildTaskLayer(state) as never, { port: 0, taskPollIntervalMs: 20 });
    const url = running.url;
    client = new Client(
      { name: 'cloudg-tasks-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: { extensions: { [TASKS]: {} } } as never },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    // The client refuses the handle itself, so the call that starts the task is a raw request.
    await expect(client.callTool({ name: 'crunch', arguments: { ms: 10 } })).rejects.toThrow(
      "Unsupported result type 'task'",
    );
    const start = async (ms: number) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': 'crunch',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'crunch',
            arguments: { ms },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
            },
          },
        }),
      });
      const text = await res.text();
      const body = JSON.parse(text.startsWith('{') ? text : (text.split('data: ').pop() ?? '{}'));
      return body.result.taskId as string;
    };
    const taskId = await start(40);
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 100; i += 1) {
      task = await (client as Client).request({ method: 'tasks/get', params: { taskId } }, AnyResult);
      if (task.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(task).toMatchObject({ status: 'completed', result: { structuredContent: { crunched: 40 } } });

    const long = await start(60_000);
    await client.request({ method: 'tasks/cancel', params: { taskId: long } }, AnyResult);
    expect(await client.request({ method: 'tasks/get', params: { taskId: long } }, Task)).toMatchObject({
      status: 'cancelled',
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(state.stopped).toBe(1);
  });
});
