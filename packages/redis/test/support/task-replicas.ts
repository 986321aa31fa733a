/**
 * Replicas serving tasks over HTTP, sharing one Redis for sessions, changes and tasks (store and
 * relay sealed with one vault key), as separate processes would. Each has its own layer with
 * `crunch` (works for `ms`, reporting progress each `every` ms if given, notes when its signal
 * stopped it), `wipe` (asks the person first) and `erase` (asks once per disk, each time under
 * the same key `confirm`), all task-capable, and counts what ran on it. `kill` stops a replica without a goodbye.
 */
import { createLogger, Layer, Registry } from '@cloudg/core';
import { createVaultSealer } from '@cloudg/privacy';
import { type RunningHttpServer, serveHttp } from '@cloudg/transports';
import * as z from 'zod';
import { createRedisSharedState, type RedisSharedState } from '../../src/index.js';
import { Stream } from './http-client.js';

export interface TaskCounts {
  /** Calls of `crunch` that ran here. */
  crunched: number;
  /** Calls of `crunch` here that ended because their signal was aborted. */
  stopped: number;
  wipes: number;
}

export interface TaskReplica {
  name: string;
  port: number;
  state: RedisSharedState;
  running: RunningHttpServer;
  counts: TaskCounts;
  kill(): Promise<void>;
  close(): Promise<void>;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

function taskLayer(counts: TaskCounts): Layer<TaskCounts> {
  const registry = new Registry<TaskCounts>();
  registry.tool({
    name: 'crunch',
    description: 'Works for `ms` milliseconds on instance i-0abc123 of account 123456789012.',
    input: { ms: z.number().int().min(0), every: z.number().int().min(1).optional() },
    taskSupport: 'optional',
    handler: async (ctx, args) => {
      ctx.app.crunched += 1;
      await ctx.reportProgress(1, 2, 'halfway through i-0abc123');
      try {
        // With `every`, a progress report each `every` ms; otherwise one pause.
        const step = args.every ?? args.ms;
        for (let done = 0; done < args.ms; done += step) {
          await pause(Math.min(step, args.ms - done), ctx.signal);
          if (args.every) await ctx.reportProgress(done + step, args.ms);
        }
      } catch (error) {
        ctx.app.stopped += 1;
        throw error;
      }
      return { crunched: args.ms, instance: 'i-0abc123', account: '123456789012' };
    },
  });
  registry.tool({
    name: 'wipe',
    description: 'Wipes a disk once the person confirms.',
    input: { disk: z.string() },
    taskSupport: 'optional',
    handler: async (ctx, args) => {
      if (!(await ctx.confirm(`Wipe ${args.disk}?`))) return { wiped: false };
      ctx.app.wipes += 1;
      return { wiped: true, disk: args.disk };
    },
  });
  registry.tool({
    name: 'erase',
    description: 'Erases each disk the person confirms, asking once per disk.',
    input: { disks: z.array(z.string()) },
    taskSupport: 'optional',
    handler: async (ctx, args) => {
      const erased: string[] = [];
      for (const disk of args.disks) {
        if (!(await ctx.confirm(`Erase ${disk}?`, { key: 'confirm' }))) continue;
        ctx.app.wipes += 1;
        erased.push(disk);
      }
      return { erased };
    },
  });
  return new Layer({ registry, app: counts, logger: createLogger({ level: 'silent' }) });
}

export const VAULT_KEY = 'a-vault-key-every-replica-shares';

export async function startTaskReplicas(
  url: string,
  names: string[],
  keyPrefix: string,
  leaseMs: number,
  options: { stateless?: boolean } = {},
): Promise<TaskReplica[]> {
  const out: TaskReplica[] = [];
  for (const name of names) {
    const state = await createRedisSharedState(url, { keyPrefix, heartbeatMs: 150 });
    const sealer = createVaultSealer({ key: VAULT_KEY });
    state.sealWith(sealer);
    const tasks = state.tasks(sealer, { leaseMs });
    const counts: TaskCounts = { crunched: 0, stopped: 0, wipes: 0 };
    const running = await serveHttp(taskLayer(counts) as never, {
      port: 0,
      authTokens: ['atok::alice', 'btok::bob'],
      keepaliveIntervalMs: 60_000,
      taskPollIntervalMs: 20,
      sessions: state.sessions,
      changes: state.changes,
      taskStore: tasks.store,
      taskRelay: tasks.relay,
      ...(options.stateless ? { stateless: true } : {}),
    });
    await tasks.relay.ready();
    let gone = false;
    out.push({
      name,
      port: running.port,
      state,
      running,
      counts,
      async kill() {
        // No goodbye: the connection drops, the lease is left to lapse, the work is abandoned.
        gone = true;
        state.client.disconnect();
        running.server.httpServer.closeAllConnections();
        running.server.httpServer.close();
        await state.close();
      },
      async close() {
        if (gone) return;
        gone = true;
        await running.close();
        await state.close();
      },
    });
  }
  return out;
}

type Json = Record<string, unknown>;

const TASKS = 'io.modelcontextprotocol/tasks';

/** A raw 2026-07-28 client's request metadata: tasks extension, and elicitation for the asking tools. */
export const TASKS_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS]: {} } },
};

let nextId = 0;

/** One raw 2026-07-28 request to `replica` (as alice unless `headers` say otherwise); its JSON-RPC answer. */
export async function post(
  replica: Pick<TaskReplica, 'port'>,
  method: string,
  params: Json,
  headers: Record<string, string> = { Authorization: 'Bearer atok' },
): Promise<Json> {
  nextId += 1;
  const name = typeof params.name === 'string' ? params.name : params.taskId;
  const res = await fetch(`http://127.0.0.1:${replica.port}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId, method, params: { ...params, _meta: TASKS_META } }),
  });
  const text = await res.text();
  return text.startsWith('{') ? JSON.parse(text) : JSON.parse(text.split('data: ').pop() ?? '{}');
}

/** tasks/get on `replica` until `done` holds (bounded: a test never waits forever). */
export async function pollUntil(
  replica: Pick<TaskReplica, 'port'>,
  taskId: string,
  done: (task: Json) => boolean,
): Promise<Json> {
  let task: Json = {};
  for (let i = 0; i < 250; i += 1) {
    task = (await post(replica, 'tasks/get', { taskId })).result as Json;
    if (done(task)) return task;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task never got there: ${JSON.stringify(task)}`);
}

/** A 2026 listen stream on `replica` for `taskId`'s changes, acknowledged. */
export async function listenTo(replica: Pick<TaskReplica, 'port' | 'name'>, taskId: string): Promise<Stream> {
  const stream = await Stream.open(
    replica.port,
    {
      authorization: 'Bearer atok',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    {
      jsonrpc: '2.0',
      id: `l-${replica.name.toLowerCase()}`,
      method: 'subscriptions/listen',
      params: { notifications: { taskIds: [taskId] }, _meta: TASKS_META },
    },
  );
  await stream.until((frames) => frames.length >= 1);
  return stream;
}
