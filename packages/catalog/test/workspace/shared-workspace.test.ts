/**
 * A workspace shared through a WorkspaceLog (the port; an in-memory log here, Redis in
 * @cloudg/redis): what one workspace changes through its tools the other applies, writers take
 * the log's lease one at a time, and live collection never holds it.
 */
import { join } from 'node:path';
import { createLogger, Registry } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import {
  createCatalogLayer,
  type LogHead,
  registerWorkspaceTools,
  SharedWorkspace,
  sampleEstateDir,
  Workspace,
  type WorkspaceLease,
  type WorkspaceLog,
  type WorkspaceOperation,
} from '../../src/index.js';

class MemoryLog implements WorkspaceLog {
  readonly entries: WorkspaceOperation[] = [];
  leasesTaken = 0;
  #holder: symbol | undefined;

  async head(): Promise<LogHead> {
    return { seq: this.entries.length, epoch: this.entries.length > 0 ? 'memory' : '' };
  }
  async read(after: number) {
    return this.entries.slice(after).map((operation, i) => ({ seq: after + i + 1, operation }));
  }
  async lease(signal: AbortSignal): Promise<WorkspaceLease> {
    while (this.#holder) {
      signal.throwIfAborted();
      await new Promise((r) => setTimeout(r, 1));
    }
    const me = Symbol('lease');
    this.#holder = me;
    this.leasesTaken += 1;
    return {
      append: async (operations) => {
        this.entries.push(...operations);
        return this.head();
      },
      release: async () => {
        if (this.#holder === me) this.#holder = undefined;
      },
    };
  }
  watch(): () => void {
    return () => {};
  }
}

let finishCollection = () => {};

function registry(): Registry<Workspace> {
  const r = new Registry<Workspace>();
  registerWorkspaceTools(r);
  // Stands for map_inventory: it reaches the cloud and adds a dataset.
  r.tool({
    name: 'slow_collection',
    capabilities: ['cloud_access', 'read_state', 'write_state'],
    readOnly: false,
    handler: () =>
      new Promise((resolve) => {
        finishCollection = () => resolve({ done: true });
      }),
  });
  return r;
}

async function replica(log: MemoryLog) {
  const workspace = new Workspace({ allowedRoots: [sampleEstateDir()] });
  const shared = new SharedWorkspace(workspace, log, { pollMs: 60_000 });
  await shared.start();
  const layer = createCatalogLayer({
    workspace,
    registry: registry(),
    middleware: [shared.middleware],
    logger: createLogger({ level: 'silent' }),
  });
  return { workspace, shared, layer };
}

const INVENTORY = join(sampleEstateDir(), 'inventory');

describe('a workspace shared through a log', () => {
  it('logs what a tool changed and applies it on another workspace before its next call', async () => {
    const log = new MemoryLog();
    const [a, b] = [await replica(log), await replica(log)];
    await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'one' });
    await a.layer.callTool('snapshot_dataset', { new_name: 'two' });
    expect(log.entries.map((e) => e.op)).toEqual(['load', 'snapshot']);
    expect(b.workspace.names()).toEqual([]);
    const listed = await b.layer.callTool('list_datasets', {});
    expect((listed.structured as { datasets: { name: string }[] }).datasets.map((d) => d.name)).toEqual([
      'one',
      'two',
    ]);
    expect(b.shared.applied).toBe(2);
  });

  it('lets workspace changes go on while a live collection runs: it never takes the lease', async () => {
    const log = new MemoryLog();
    const a = await replica(log);
    const collecting = a.layer.callTool('slow_collection', {});
    await new Promise((r) => setTimeout(r, 10));
    const loaded = await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'meanwhile' });
    expect(loaded.isError).toBe(false);
    expect(log.leasesTaken).toBe(1);
    finishCollection();
    expect((await collecting).isError).toBe(false);
    expect(log.leasesTaken).toBe(1);
  });
});
