/**
 * `max_datasets` in a workspace shared by replicas (issue 20): the writer evicts under the log's
 * lease and appends the eviction as an `unload` with reason `evicted`; no replica evicts on its
 * own what it applies. So replicas whose own preloads differ, a replica started later and one
 * rebuilt from a compaction snapshot hold the same datasets made through the log.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type ToolResult } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import {
  configureLive,
  createCatalogLayer,
  defaultRegistry,
  SharedWorkspace,
  sampleEstateDir,
  Workspace,
  type WorkspaceOperation,
} from '../../src/index.js';
import { compactOperations } from '../../src/workspace/compact-operations.js';
import { SampleEngine } from '../live/sample-engine.js';
import { MemoryLog } from './memory-log.js';

const INVENTORY = join(sampleEstateDir(), 'inventory');
const REPORT = join(sampleEstateDir(), 'report');

interface ReplicaOptions {
  maxDatasets?: number;
  /** The replica's own `--dataset` values (the sample report, under these names). */
  preloads?: string[];
  compactAfter?: number;
}

async function replica(log: MemoryLog, options: ReplicaOptions = {}) {
  const workspace = new Workspace({
    allowedRoots: [sampleEstateDir()],
    maxDatasets: options.maxDatasets ?? 2,
  });
  const preloads = options.preloads ?? [];
  for (const name of preloads) await workspace.preload(REPORT, { name });
  const skipped: WorkspaceOperation[] = [];
  const shared = new SharedWorkspace(workspace, log, {
    pollMs: 60_000,
    onSkipped: (entry) => skipped.push(entry.operation),
    ...(options.compactAfter === undefined ? {} : { compactAfter: options.compactAfter }),
  });
  await shared.start();
  const layer = createCatalogLayer({
    workspace,
    registry: defaultRegistry(),
    middleware: [shared.middleware],
    logger: createLogger({ level: 'silent' }),
  });
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const result = await layer.callTool(name, args);
    expect(result.isError, JSON.stringify(result.content)).toBe(false);
    return result;
  };
  /** The datasets it holds that its own preloads did not make, in order. */
  const fromLog = () => workspace.names().filter((n) => !preloads.includes(n) || !isReport(workspace, n));
  return { workspace, shared, layer, call, fromLog, skipped };
}

/** A preload holds the sample report; every load in these tests loads the inventory. */
function isReport(workspace: Workspace, name: string): boolean {
  return workspace.get(name).kind === 'report';
}

const evicted = (name: string): WorkspaceOperation => ({ op: 'unload', name, reason: 'evicted' });

const state = (w: Workspace) => ({
  active: w.activeName,
  datasets: w.names().map((n) => [n, w.get(n).kind, w.get(n).assets.length, w.get(n).findings.length]),
});

describe('max_datasets in a shared workspace', () => {
  it('replicas with different preloads end with the same datasets from the log, and keep their own', async () => {
    const log = new MemoryLog();
    const a = await replica(log, { preloads: ['own-a'] });
    // B's own datasets already fill max_datasets: alone it would evict them, or what it applies.
    const b = await replica(log, { preloads: ['own-b1', 'own-b2'] });
    await a.call('load_dataset', { path: INVENTORY, name: 'one' });
    await a.call('load_dataset', { path: INVENTORY, name: 'two' });
    await a.call('load_dataset', { path: INVENTORY, name: 'three' });
    await b.call('load_dataset', { path: INVENTORY, name: 'four' });
    await a.call('list_datasets', {});

    // The writer's eviction is in the log, appended with the load that caused it.
    expect(log.entries.map((e) => (e.op === 'unload' ? e : e.op))).toEqual([
      'load',
      'load',
      'load',
      evicted('one'),
      'load',
      evicted('two'),
    ]);
    expect(a.fromLog()).toEqual(['three', 'four']);
    expect(b.fromLog()).toEqual(['three', 'four']);
    expect(a.workspace.names()).toEqual(['own-a', 'three', 'four']);
    expect(b.workspace.names()).toEqual(['own-b1', 'own-b2', 'three', 'four']);
    expect([a.workspace.activeName, b.workspace.activeName]).toEqual(['four', 'four']);
    // A replica started later, with no preloads, holds the same.
    const late = await replica(log);
    await late.call('list_datasets', {});
    expect(late.workspace.names()).toEqual(['three', 'four']);
    expect(late.workspace.activeName).toBe('four');
    expect([a.skipped, b.skipped, late.skipped]).toEqual([[], [], []]);
  });

  it("never evicts a replica's own dataset when the log evicts the same name there", async () => {
    const log = new MemoryLog();
    const a = await replica(log);
    const b = await replica(log, { preloads: ['shared-name'] });
    // On B the name is its own preload: the load is refused there (skipped), as before.
    await a.call('load_dataset', { path: INVENTORY, name: 'shared-name' });
    await a.call('load_dataset', { path: INVENTORY, name: 'y' });
    await a.call('load_dataset', { path: INVENTORY, name: 'z' });
    expect(log.entries.at(-1)).toEqual(evicted('shared-name'));
    await b.call('list_datasets', {});
    expect(b.skipped.map((o) => o.op)).toEqual(['load']);
    expect(b.workspace.names()).toEqual(['shared-name', 'y', 'z']);
    expect(isReport(b.workspace, 'shared-name')).toBe(true);
    expect(a.workspace.names()).toEqual(['y', 'z']);
  });

  it('evicts after a live collection too, appending the eviction with the collection', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cloudg-shared-evict-'));
    try {
      const log = new MemoryLog();
      const live = async () => {
        const workspace = new Workspace({
          allowedRoots: [sampleEstateDir(), dir],
          outputDir: join(dir, 'out'),
          cwd: dir,
          maxDatasets: 2,
        });
        configureLive(workspace, {
          preflight: {
            env: { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE00', AWS_SECRET_ACCESS_KEY: 'example', PATH: '' },
            homeDir: dir,
            probe: async () => null,
          },
        });
        const shared = new SharedWorkspace(workspace, log, { pollMs: 60_000 });
        await shared.start();
        const layer = createCatalogLayer({
          workspace,
          registry: defaultRegistry({ live: { engine: new SampleEngine() } }),
          middleware: [shared.middleware],
          logger: createLogger({ level: 'silent' }),
        });
        return { workspace, layer };
      };
      const [a, b] = [await live(), await live()];
      for (const name of ['one', 'two'])
        expect((await a.layer.callTool('load_dataset', { path: INVENTORY, name })).isError).toBe(false);
      const collected = await a.layer.callTool('map_inventory', {
        providers: ['aws'],
        regions: ['us-east-1'],
        name: 'live-aws',
      });
      expect(collected.isError, JSON.stringify(collected.content)).toBe(false);
      // The collection was added without the lease; its eviction is decided once it holds it.
      expect(log.entries.map((e) => (e.op === 'unload' ? e : e.op))).toEqual([
        'load',
        'load',
        'live',
        evicted('one'),
      ]);
      expect(a.workspace.names()).toEqual(['two', 'live-aws']);
      expect((await b.layer.callTool('list_datasets', {})).isError).toBe(false);
      expect(state(b.workspace)).toEqual(state(a.workspace));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('applies a log an earlier version wrote (no evictions in it) without evicting, until the next change', async () => {
    const log = new MemoryLog();
    const load = (name: string): WorkspaceOperation => ({
      op: 'load',
      path: INVENTORY,
      name,
      kind: 'auto',
      normalise: true,
      activate: true,
      replace: false,
    });
    // Four loads beyond max_datasets 2 and a plain unload, as replicas that evicted on their own wrote them.
    log.entries.push(load('one'), load('two'), load('three'), load('four'), { op: 'unload', name: 'two' });
    const [a, b] = [await replica(log), await replica(log)];
    await b.call('list_datasets', {});
    expect(b.workspace.names()).toEqual(['one', 'three', 'four']);
    await a.call('load_dataset', { path: INVENTORY, name: 'five' });
    expect(log.entries.slice(5)).toEqual([
      expect.objectContaining({ op: 'load', name: 'five' }),
      evicted('one'),
      evicted('three'),
    ]);
    await b.call('list_datasets', {});
    expect(b.workspace.names()).toEqual(['four', 'five']);
    expect(state(b.workspace)).toEqual(state(a.workspace));
  });

  it('keeps exactly max_datasets apart from preloads in a workspace of its own (no log), as before', async () => {
    const alone = new Workspace({ allowedRoots: [sampleEstateDir()], maxDatasets: 2 });
    await alone.preload(REPORT, { name: 'own' });
    await alone.load(INVENTORY, { name: 'one' });
    await alone.load(INVENTORY, { name: 'two' });
    // Without a shared log the preload counts and goes first, as it always did.
    expect(alone.names()).toEqual(['one', 'two']);
  });
});

describe('evictions and compaction', () => {
  it('compacts an evicted dataset away with everything done to it, unless a snapshot copied it', () => {
    const load = (name: string): WorkspaceOperation => ({
      op: 'load',
      path: `/${name}`,
      name,
      kind: 'auto',
      normalise: false,
      activate: true,
      replace: false,
    });
    const ops: WorkspaceOperation[] = [
      load('a'),
      { op: 'triage', dataset: 'a', decisions: [] },
      load('b'),
      load('c'),
      evicted('a'),
      { op: 'snapshot', from: 'b', name: 's', replace: false },
      load('d'),
      evicted('b'),
    ];
    expect(compactOperations(ops)).toEqual([
      ops[2],
      ops[3],
      ops[5],
      ops[6],
      ops[7],
      { op: 'use', name: 'd' },
    ]);
  });

  it('a snapshot applied to an empty workspace gives what the whole log gave, and a rebuilt replica brings back nothing evicted', async () => {
    const log = new MemoryLog();
    const a = await replica(log, { compactAfter: 8, preloads: ['own-a'] });
    const b = await replica(log, { preloads: ['own-b'] });
    await a.call('load_dataset', { path: INVENTORY, name: 'one' });
    await b.call('list_datasets', {});
    expect(b.fromLog()).toEqual(['one']);
    // B sleeps through the rest: loads that evict, a snapshot of a dataset later evicted, a
    // triage decision on one evicted with it, and the compaction.
    await a.call('snapshot_dataset', { dataset: 'one', new_name: 'frozen' });
    await a.call('load_dataset', { path: INVENTORY, name: 'two' });
    const finding = a.workspace.get('two').findings[0]?.id;
    expect(finding).toBeDefined();
    await a.call('suppress_findings', { dataset: 'two', finding_ids: [finding], reason: 'accepted risk' });
    await a.call('load_dataset', { path: INVENTORY, name: 'three' });
    await a.call('load_dataset', { path: INVENTORY, name: 'four' });
    await a.call('select_dataset', { name: 'three' });
    const gone = log.appended.flatMap((o) => (o.op === 'unload' && o.reason === 'evicted' ? [o.name] : []));
    expect(gone).toEqual(['one', 'frozen', 'two']);
    expect(log.base).toBeGreaterThan(0);
    // 'one' stays in the snapshot (a snapshot copied it) with its eviction; 'two' is gone whole,
    // but for its triage decisions, kept for a state directory (see compactOperations).
    expect(log.snapshotOps).toContainEqual(evicted('one'));
    expect(JSON.stringify(log.snapshotOps.filter((o) => o.op !== 'triage'))).not.toContain('"two"');

    // The whole log, applied to an empty workspace, against the snapshot and what followed it.
    const whole = new MemoryLog();
    whole.entries.push(...log.appended);
    const fromWhole = await replica(whole);
    await fromWhole.call('list_datasets', {});
    const late = await replica(log);
    await late.call('list_datasets', {});
    expect(state(late.workspace)).toEqual(state(fromWhole.workspace));
    expect(late.workspace.names()).toEqual(['three', 'four']);
    expect(a.fromLog()).toEqual(['three', 'four']);

    // B had applied one operation, before the compaction point: it rebuilds, keeps its own preload
    // and brings back none of the evicted datasets.
    await b.call('list_datasets', {});
    expect(b.workspace.names()).toEqual(['own-b', 'three', 'four']);
    expect(b.fromLog()).toEqual(a.fromLog());
    expect(b.workspace.activeName).toBe('three');
  });
});
