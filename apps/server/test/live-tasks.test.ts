/**
 * The live tools as tasks, served over HTTP: `collect_assets` for a client that supports tasks
 * answers with a task handle and is polled to its result (the official client 2.4 on 2025-11-25,
 * raw requests on 2026-07-28), and a forced call under a policy `confirm` entry asks the person
 * first: declined, nothing is collected and no task runs; accepted, the task runs. A client
 * without elicitation gets the documented refusal (-32021).
 */
import { join } from 'node:path';
import { type CloudgEngine, configureLive, loadPath, sampleEstateDir } from '@cloudg/catalog';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLayerFromOptions, serve } from '../src/index.js';

/** An engine that returns the sample estate's inventory, counting its collections. */
function sampleEngine(counter: { collections: number }): CloudgEngine {
  const inventory = async (signal: AbortSignal) =>
    (await loadPath(join(sampleEstateDir(), 'inventory'), { signal })).data;
  return {
    mapInventory: async (r) => ({ ...(await inventory(r.signal)) }),
    collect: async (r) => {
      counter.collections += 1;
      return { ...(await inventory(r.signal)) };
    },
  };
}

const AUTH = { Authorization: 'Bearer ops-token' };
const FORCE_CONFIRM = { extends: 'open', confirm: [{ tools: ['collect_assets'], when_true: ['force'] }] };

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(counter: { collections: number }): Promise<string> {
  const server = await createLayerFromOptions({
    policy: FORCE_CONFIRM as never,
    engine: sampleEngine(counter),
  });
  configureLive(server.workspace, {
    preflight: { env: { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 's' } },
  });
  const abort = new AbortController();
  let url = '';
  const done = serve(server, {
    transport: 'http',
    port: 0,
    // An operator: `force` (skipping the cooldown) is theirs and admins' only.
    authTokens: ['ops-token:operator:olivia'],
    signal: abort.signal,
    handleSignals: false,
    announce: () => {},
    onListening: (address) => {
      url = address.url;
    },
  });
  stop = async () => {
    abort.abort();
    await done;
  };
  while (!url) await new Promise((r) => setTimeout(r, 10));
  return url;
}

/** A result schema for the client's generic `request` that takes the answer as it comes. */
function asIs<T>() {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'cloudg-test',
      validate: (value: unknown) => ({ value: value as T }),
      types: undefined as unknown as { input: unknown; output: T },
    },
  };
}
type TaskShape = { taskId: string; status: string };
const Task = asIs<TaskShape>();
const CreateTask = asIs<{ task: TaskShape }>();
const AnyResult = asIs<Record<string, unknown>>();

describe('collect_assets as a task, 2025-11-25, the official client 2.4', () => {
  it('answers with a task, polled to completion; a forced call is confirmed first', async () => {
    const counter = { collections: 0 };
    const url = await start(counter);
    let action: 'accept' | 'decline' = 'decline';
    const asked: string[] = [];
    const client = new Client(
      { name: 'live-tasks', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return action === 'accept' ? { action, content: { confirm: true } } : { action };
    });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } }),
      );
      const tools = await client.listTools();
      expect(tools.tools.find((t) => t.name === 'collect_assets')).toMatchObject({
        execution: { taskSupport: 'optional' },
      });
      const collect = async (args: Record<string, unknown>) => {
        const { task } = await client.request(
          { method: 'tools/call', params: { name: 'collect_assets', arguments: args, task: {} } },
          CreateTask,
        );
        let status = task.status;
        for (let i = 0; i < 200 && (status === 'working' || status === 'input_required'); i += 1) {
          await new Promise((r) => setTimeout(r, 25));
          status = (await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, Task))
            .status;
        }
        return client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, AnyResult);
      };

      const first = await collect({ providers: ['aws'], name: 'first' });
      expect(first.isError).toBe(false);
      expect(counter.collections).toBe(1);

      const declined = await collect({ providers: ['aws'], name: 'forced', force: true });
      expect(declined.isError).toBe(true);
      expect((declined._meta as Record<string, unknown>)['cloudg/error_code']).toBe('declined');
      expect(counter.collections).toBe(1);

      action = 'accept';
      const accepted = await collect({ providers: ['aws'], name: 'forced', force: true });
      expect(accepted.isError).toBe(false);
      expect(counter.collections).toBe(2);
      expect(asked).toEqual([
        'Run collect_assets with force? The policy asks you to confirm this call.',
        'Run collect_assets with force? The policy asks you to confirm this call.',
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('collect_assets as a task, 2026-07-28, raw requests', () => {
  const meta = (capabilities: Record<string, unknown>) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  });
  const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
  let id = 0;
  async function post(url: string, method: string, params: Record<string, unknown>) {
    id += 1;
    const name = typeof params.name === 'string' ? params.name : params.taskId;
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': method,
        ...AUTH,
        ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    const text = await res.text();
    return JSON.parse(text.startsWith('{') ? text : (text.split('data: ').pop() ?? '{}'));
  }

  it('confirms a forced call before the task exists, then runs it as a task', async () => {
    const counter = { collections: 0 };
    const url = await start(counter);
    const capabilities = { elicitation: {}, ...TASKS };
    const args = { name: 'collect_assets', arguments: { providers: ['aws'], name: 'forced', force: true } };
    const first = await post(url, 'tools/call', { ...args, _meta: meta(capabilities) });
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    expect(first.result).not.toHaveProperty('taskId');
    const [key] = Object.keys(first.result.inputRequests);
    const second = await post(url, 'tools/call', {
      ...args,
      inputResponses: { [key as string]: { action: 'accept', content: { confirm: true } } },
      requestState: first.result.requestState,
      _meta: meta(capabilities),
    });
    expect(second.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(second.result).not.toHaveProperty('requestState');
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 200; i += 1) {
      task = (await post(url, 'tasks/get', { taskId: second.result.taskId, _meta: meta(TASKS) })).result;
      if (task.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(task, JSON.stringify(task.result)).toMatchObject({
      status: 'completed',
      result: { isError: false },
    });
    expect(counter.collections).toBe(1);
  });

  it('refuses a forced call from a client without elicitation, before anything runs (-32021)', async () => {
    const counter = { collections: 0 };
    const url = await start(counter);
    const refused = await post(url, 'tools/call', {
      name: 'collect_assets',
      arguments: { providers: ['aws'], force: true },
      _meta: meta(TASKS),
    });
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(counter.collections).toBe(0);
  });
});
