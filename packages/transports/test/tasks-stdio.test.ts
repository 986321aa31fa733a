/**
 * The tasks extension over stdio (2026-07-28), raw JSON lines: a task created, asked a question
 * answered with `tasks/update`, and polled to its result, on one connection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StdioChild } from './support/child.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

let child: StdioChild | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

describe('the tasks extension over stdio', () => {
  it('runs a task that asks, answered with tasks/update, polled to its result', async () => {
    const c = new StdioChild({ TEST_LAYER: 'tasks' });
    child = c;
    let id = 0;
    const request = async (method: string, params: Record<string, unknown>) => {
      id += 1;
      const mine = id;
      c.write({ jsonrpc: '2.0', id: mine, method, params: { ...params, _meta: META } });
      return (await c.waitFor((m) => m.id === mine)) as { result: Record<string, unknown> };
    };
    const created = await request('tools/call', { name: 'wipe', arguments: { disk: 'sdb' } });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result.taskId;
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 100 && task.status !== 'input_required'; i += 1) {
      task = (await request('tasks/get', { taskId })).result;
    }
    const [key] = Object.keys(task.inputRequests as object);
    await request('tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { confirm: true } } },
    });
    for (let i = 0; i < 100 && task.status !== 'completed'; i += 1) {
      task = (await request('tasks/get', { taskId })).result;
    }
    expect(task).toMatchObject({
      status: 'completed',
      result: { structuredContent: { wiped: true, wipes: 1 } },
    });
  });
});
