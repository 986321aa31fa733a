/**
 * A workspace shared through a WorkspaceLog (the port; an in-memory log here, Redis in
 * @cloudg/redis): what one workspace changes through its tools the other applies, writers take
 * the log's lease one at a time, and live collection never holds it.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createLogger, Principal, Registry } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import {
  createCatalogLayer,
  registerWorkspaceTools,
  restoreLiveDatasets,
  SharedWorkspace,
  type SharedWorkspaceOptions,
  sampleEstateDir,
  Workspace,
  type WorkspaceOperation,
} from '../../src/index.js';
import { compactOperations } from '../../src/workspace/compact-operations.js';
import { SampleEngine } from '../live/sample-engine.js';
import { liveReplica } from './live-replica.js';
import { MemoryLog } from './memory-log.js';

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
  // A tool that writes state and makes an exclusive change itself (shares an operation).
  r.tool({
    name: 'share_inside_writer',
    capabilities: ['read_state', 'write_state'],
    readOnly: false,
    handler: async (ctx) => {
      await ctx.app.share({ op: 'use', name: 'one' });
      return { done: true };
    },
  });
  return r;
}

async function replica(log: MemoryLog, options: SharedWorkspaceOptions = {}) {
  const workspace = new Workspace({ allowedRoots: [sampleEstateDir()] });
  const shared = new SharedWorkspace(workspace, log, { pollMs: 60_000, ...options });
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

/** Runs a test with a fresh directory (the replicas' shared one), removed afterwards. */
async function inTempDir(prefix: string, test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    await test(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

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

  it('never applies its own operations again when a catch-up in the background reads the log as they are appended', async () => {
    const log = new MemoryLog();
    const skipped: string[] = [];
    const { shared, layer } = await replica(log, { onSkipped: (entry) => skipped.push(entry.operation.op) });
    // The writer's own catch-up asks for the head first; the poll's, second, is answered only once
    // the writer appended (or after 200 ms, when the append waits for the poll).
    const head = log.head.bind(log);
    let calls = 0;
    log.head = async () => {
      calls += 1;
      if (calls === 2)
        for (let i = 0; i < 200 && log.entries.length === 0; i += 1)
          await new Promise((r) => setTimeout(r, 1));
      return head();
    };
    const loading = layer.callTool('load_dataset', { path: INVENTORY, name: 'one' });
    while (calls === 0) await new Promise((r) => setTimeout(r, 1));
    const background = shared.catchUp();
    expect((await loading).isError).toBe(false);
    await background;
    expect(skipped).toEqual([]);
    expect(shared.applied).toBe(1);
  });

  it("runs an exclusive change made inside a writer under that writer's lease, with its operations", async () => {
    const log = new MemoryLog();
    const a = await replica(log);
    await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'one' });
    const shared = await a.layer.callTool('share_inside_writer', {});
    expect(shared.isError, JSON.stringify(shared.content)).toBe(false);
    expect(log.entries.map((e) => e.op)).toEqual(['load', 'use']);
    expect(log.leasesTaken).toBe(2);
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

describe('live datasets in a shared workspace', () => {
  it('a collection on A is a dataset on B, read from the shared output directory, and so are findings it adds', async () => {
    await inTempDir('cloudg-shared-live-', async (dir) => {
      const log = new MemoryLog();
      const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
      const collected = await a.layer.callTool('map_inventory', {
        providers: ['aws'],
        regions: ['us-east-1'],
        name: 'live-aws',
      });
      expect(collected.isError, JSON.stringify(collected.content)).toBe(false);
      // Appended before the call answered: the name it returned is in the log.
      expect(log.entries.map((e) => e.op)).toEqual(['live']);
      expect(log.entries[0]).toMatchObject({ op: 'live', name: 'live-aws', activate: true, replace: false });
      // A file of this collection's own: a later one under the name does not change what it names.
      const stored = (log.entries[0] as { path: string }).path;
      expect(stored.startsWith(join(dir, 'out', 'live', 'live-aws.'))).toBe(true);

      const listed = (await b.layer.callTool('list_datasets', {})).structured as {
        active_dataset: string;
        datasets: { name: string; kind: string; assets: number }[];
      };
      expect(listed.active_dataset).toBe('live-aws');
      const there = a.workspace.get('live-aws');
      expect(listed.datasets).toEqual([expect.objectContaining({ name: 'live-aws', kind: 'live' })]);
      expect(b.workspace.get('live-aws').assets.length).toBe(there.assets.length);

      const added = (await a.layer.callTool('reachability_findings', { add_to_dataset: true }))
        .structured as {
        added: number;
      };
      expect(added.added).toBeGreaterThan(0);
      expect(log.entries.map((e) => e.op)).toEqual(['live', 'reachability']);
      const total = async (r: { layer: typeof a.layer }) =>
        ((await r.layer.callTool('list_findings', { limit: 500 })).structured as { total: number }).total;
      expect(await total(b)).toBe(await total(a));
      expect(b.workspace.get('live-aws').findings.map((f) => f.id)).toEqual(there.findings.map((f) => f.id));
      // The stored collection is server state on every replica: no tool reads it back.
      const read = await b.layer.callTool('load_dataset', { path: stored });
      expect(read.isError).toBe(true);
    });
  });

  it('a replica started later reads each collection as it was, though a later one took its name', async () => {
    await inTempDir('cloudg-shared-live-', async (dir) => {
      const log = new MemoryLog();
      const engine = new SampleEngine();
      const a = await liveReplica(log, dir, { engine });
      const collect = async (args: Record<string, unknown>) => {
        const result = await a.layer.callTool(
          'map_inventory',
          { providers: ['aws'], regions: ['us-east-1'], name: 'live-aws', ...args },
          { principal: new Principal({ id: 'ops', roles: ['admin'] }) },
        );
        expect(result.isError, JSON.stringify(result.content)).toBe(false);
      };
      await collect({});
      expect((await a.layer.callTool('snapshot_dataset', { new_name: 'before' })).isError).toBe(false);
      // The next collection finds one more asset, and replaces the dataset under the same name.
      const first = a.workspace.get('live-aws').assets[0];
      if (!first) throw new Error('the sample collection is empty');
      engine.extraAssets = [{ ...first, id: `${first.id}-new`, name: 'new-since' }];
      await collect({ replace: true, force: true });
      expect(log.entries.map((e) => e.op)).toEqual(['live', 'snapshot', 'live']);

      const late = await liveReplica(log, dir, { engine });
      await late.layer.callTool('list_datasets', {});
      const sizes = (w: Workspace) => w.names().map((n) => [n, w.get(n).assets.length]);
      expect(sizes(late.workspace)).toEqual(sizes(a.workspace));
      expect(late.workspace.get('before').assets.length + 1).toBe(
        late.workspace.get('live-aws').assets.length,
      );
    });
  });
});

describe('scan results in a shared workspace', () => {
  it("findings run_scanners adds on A are the dataset's findings on B, without scanning again", async () => {
    await inTempDir('cloudg-shared-scan-', async (dir) => {
      const log = new MemoryLog();
      const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
      // A dataset loaded from a file (not a live collection): the scan results still travel.
      const loaded = await b.layer.callTool('load_dataset', { path: INVENTORY, name: 'prod' });
      expect(loaded.isError, JSON.stringify(loaded.content)).toBe(false);
      const before = b.workspace.get('prod').findings.length;

      const scanned = await a.layer.callTool('run_scanners', { scanners: ['iam'], dataset: 'prod' });
      expect(scanned.isError, JSON.stringify(scanned.content)).toBe(false);
      const result = scanned.structured as { new_findings: number; errors: string[] };
      expect(result.new_findings).toBeGreaterThan(0);
      expect(result.errors.filter((e) => e.startsWith('store:'))).toEqual([]);
      // Appended before the call answered.
      expect(log.entries.map((e) => e.op)).toEqual(['load', 'findings']);
      expect((log.entries[1] as { path: string }).path.startsWith(join(dir, 'out', 'shared-findings'))).toBe(
        true,
      );

      const total = async (r: { layer: typeof a.layer }) =>
        (
          (await r.layer.callTool('list_findings', { limit: 500, dataset: 'prod' })).structured as {
            total: number;
          }
        ).total;
      expect(await total(b)).toBe(await total(a));
      expect(await total(b)).toBeGreaterThan(before);
      const ids = (r: { workspace: Workspace }) => r.workspace.get('prod').findings.map((f) => f.id);
      expect(ids(b)).toEqual(ids(a));
      expect(b.workspace.get('prod').compliance).toEqual(a.workspace.get('prod').compliance);
      // The stored results are server state on every replica: no tool reads them back.
      const read = await b.layer.callTool('load_dataset', {
        path: (log.entries[1] as { path: string }).path,
      });
      expect(read.isError).toBe(true);
    });
  });
});

describe('a scan that another replica changed the dataset during', () => {
  it("merges this scan's findings onto what the other replica's scan left, under the lease, and shares that once", async () => {
    await inTempDir('cloudg-shared-scan-race-', async (dir) => {
      const log = new MemoryLog();
      const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
      expect((await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'prod' })).isError).toBe(false);
      const before = a.workspace.get('prod').findings.map((f) => f.id);
      // While A scans (without the lease), another replica's scan of prod that found nothing
      // new stored prod's findings as they were: its operation is in the log when A takes the lease.
      const other = join(dir, 'other-scan.json');
      await writeFile(
        other,
        JSON.stringify({
          format: 'cloudg-dataset-findings/1',
          findings: a.workspace.get('prod').findings,
          compliance: a.workspace.get('prod').compliance,
        }),
      );
      const lease = log.lease.bind(log);
      log.lease = async (signal) => {
        if (log.entries.length === 1) log.entries.push({ op: 'findings', dataset: 'prod', path: other });
        return lease(signal);
      };
      const scanned = await a.layer.callTool('run_scanners', { scanners: ['iam'], dataset: 'prod' });
      expect(scanned.isError, JSON.stringify(scanned.content)).toBe(false);
      const result = scanned.structured as { new_findings: number; findings_after: number; errors: string[] };
      expect(result.errors.filter((e) => e.startsWith('store:'))).toEqual([]);
      // One file for A's scan, written once the other scan was applied.
      expect(log.entries.map((e) => e.op)).toEqual(['load', 'findings', 'findings']);
      const fresh = (w: Workspace) => w.get('prod').findings.filter((f) => !before.includes(f.id)).length;
      expect(result.new_findings).toBeGreaterThan(0);
      expect(fresh(a.workspace)).toBe(result.new_findings);
      expect(a.workspace.get('prod').findings.length).toBe(result.findings_after);
      await b.layer.callTool('list_datasets', {});
      const ids = (w: Workspace) => w.get('prod').findings.map((f) => f.id);
      expect(ids(b.workspace)).toEqual(ids(a.workspace));
    });
  });
});

describe('scan results of a live dataset kept for a restart, in a shared workspace', () => {
  it('are written once: the save for a restart is the file the other replicas read', async () => {
    await inTempDir('cloudg-shared-scan-live-', async (dir) => {
      const log = new MemoryLog();
      const [a, b] = [
        await liveReplica(log, dir, { persist: true }),
        await liveReplica(log, dir, { persist: true }),
      ];
      const collected = await a.layer.callTool('map_inventory', { providers: ['aws'], name: 'live-aws' });
      expect(collected.isError, JSON.stringify(collected.content)).toBe(false);
      const scanned = await a.layer.callTool('run_scanners', { scanners: ['iam'], dataset: 'live-aws' });
      const result = scanned.structured as { new_findings: number; errors: string[] };
      expect(result.new_findings).toBeGreaterThan(0);
      expect(result.errors.filter((e) => e.startsWith('store:'))).toEqual([]);

      expect(log.entries.map((e) => e.op)).toEqual(['live', 'findings']);
      const [collection, scan] = log.entries.map((e) => (e as { path: string }).path);
      // One file per save under live/, and no copy of the findings beside them.
      expect((await readdir(join(dir, 'out', 'live'))).sort()).toEqual(
        [basename(collection as string), basename(scan as string)].sort(),
      );
      expect((await readdir(join(dir, 'out'))).includes('shared-findings')).toBe(false);

      await b.layer.callTool('list_datasets', {});
      const ids = (w: Workspace) => w.get('live-aws').findings.map((f) => f.id);
      expect(ids(b.workspace)).toEqual(ids(a.workspace));
      expect(b.workspace.get('live-aws').compliance).toEqual(a.workspace.get('live-aws').compliance);
      // A restart restores the newest save of the name: the scanned one.
      const restarted = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
      expect(await restoreLiveDatasets(restarted)).toEqual({ restored: ['live-aws'], skipped: [] });
      expect(ids(restarted)).toEqual(ids(a.workspace));
    });
  });
});

describe('a compacted log', () => {
  it('is compacted once it names compactAfterFiles stored files, and the files only dropped operations named are deleted', async () => {
    await inTempDir('cloudg-shared-files-', async (dir) => {
      const log = new MemoryLog();
      const engine = new SampleEngine();
      const a = await liveReplica(log, dir, { engine, compactAfterFiles: 3 });
      const admin = new Principal({ id: 'ops', roles: ['admin'] });
      // Each collection under the name finds one asset more than the one before.
      const collect = async (extra: number) => {
        const first = a.workspace.has('live-aws') ? a.workspace.get('live-aws').assets[0] : undefined;
        engine.extraAssets = first
          ? Array.from({ length: extra }, (_, i) => ({ ...first, id: `${first.id}-${i}` }))
          : [];
        const result = await a.layer.callTool(
          'map_inventory',
          { providers: ['aws'], name: 'live-aws', replace: true, force: true },
          { principal: admin },
        );
        expect(result.isError, JSON.stringify(result.content)).toBe(false);
      };
      await collect(0);
      await collect(1);
      expect((await a.layer.callTool('snapshot_dataset', { new_name: 'copy' })).isError).toBe(false);
      expect(log.base).toBe(0);
      await collect(2);
      expect(log.base).toBe(0);
      // The log names three files: the next write compacts it (before its own change), up to
      // the head every replica could have applied. The first collection went (replaced, never
      // copied), the second stays (a snapshot copied it), and only the first one's file was deleted.
      expect((await a.layer.callTool('select_dataset', { name: 'live-aws' })).isError).toBe(false);
      expect(log.base).toBe(4);
      const [one, two, three] = log.appended.flatMap((o) => (o.op === 'live' ? [o.path] : []));
      expect(log.snapshotOps.map((o) => o.op)).toEqual(['live', 'snapshot', 'live', 'use']);
      expect((await readdir(join(dir, 'out', 'live'))).sort()).toEqual(
        [basename(two as string), basename(three as string)].sort(),
      );
      expect(one).toBeDefined();

      const late = await liveReplica(log, dir, { engine });
      await late.layer.callTool('list_datasets', {});
      const sizes = (w: Workspace) => w.names().map((n) => [n, w.get(n).assets.length]);
      expect(sizes(late.workspace)).toEqual(sizes(a.workspace));
      expect(late.workspace.get('copy').assets.length + 1).toBe(late.workspace.get('live-aws').assets.length);
    });
  });

  const REPORT = join(sampleEstateDir(), 'report');
  const state = (w: Workspace) => ({
    active: w.activeName,
    datasets: w.names().map((n) => [n, w.get(n).assets.length, w.get(n).findings.length]),
  });

  it('keeps only the operations still in effect, and pins the active dataset', () => {
    const ops: WorkspaceOperation[] = [
      {
        op: 'load',
        path: '/a',
        name: 'gone',
        kind: 'auto',
        normalise: false,
        activate: true,
        replace: false,
      },
      { op: 'triage', dataset: 'gone', decisions: [] },
      { op: 'findings', dataset: 'gone', path: '/scan-1' },
      {
        op: 'load',
        path: '/b',
        name: 'kept',
        kind: 'auto',
        normalise: false,
        activate: true,
        replace: false,
      },
      { op: 'snapshot', from: 'kept', name: 'copy', replace: false },
      { op: 'unload', name: 'gone' },
      { op: 'load', path: '/c', name: 'kept', kind: 'auto', normalise: false, activate: true, replace: true },
      { op: 'use', name: 'copy' },
      { op: 'findings', dataset: 'copy', path: '/scan-2' },
    ];
    // The selection (ops[7]) goes: the final pin, worked out from the operations, stands for it.
    expect(compactOperations(ops)).toEqual([ops[3], ops[4], ops[6], ops[8], { op: 'use', name: 'copy' }]);
  });

  it('folds the triage decisions of ended generations into one operation per name, latest decision last', () => {
    const decision = (reason: string | null) => ({
      suppressed: reason !== null,
      reason,
      by: 'ops',
      at: '2026-12-02T00:00:00Z',
    });
    const load: WorkspaceOperation = {
      op: 'load',
      path: '/p',
      name: 'prod',
      kind: 'auto',
      normalise: true,
      activate: true,
      replace: false,
    };
    const ops: WorkspaceOperation[] = [
      load,
      { op: 'triage', dataset: 'prod', decisions: [['f1', decision('risk')]] },
      { op: 'triage', dataset: 'prod', decisions: [['f2', decision('noise')]] },
      { op: 'unload', name: 'prod' },
      { ...load, path: '/q' },
      { op: 'triage', dataset: 'prod', decisions: [['f1', decision(null)]] },
      { op: 'load', path: '/r', name: 'prod', kind: 'auto', normalise: true, activate: true, replace: true },
    ];
    expect(compactOperations(ops)).toEqual([
      {
        op: 'triage',
        dataset: 'prod',
        decisions: [
          ['f2', decision('noise')],
          ['f1', decision(null)],
        ],
      },
      ops[6],
      { op: 'use', name: 'prod' },
    ]);
  });

  it("keeps of a dataset's findings operations only what the last stored findings did not replace", () => {
    const ops: WorkspaceOperation[] = [
      { op: 'load', path: '/p', name: 'prod', kind: 'auto', normalise: true, activate: true, replace: false },
      { op: 'findings', dataset: 'prod', path: '/scan-1' },
      { op: 'triage', dataset: 'prod', decisions: [] },
      { op: 'reachability', dataset: 'prod' },
      { op: 'findings', dataset: 'prod', path: '/scan-2' },
      { op: 'snapshot', from: 'prod', name: 'copy', replace: false },
      { op: 'normalise', dataset: 'prod' },
      { op: 'findings', dataset: 'prod', path: '/scan-3' },
    ];
    // scan-1 and the reachability findings are in scan-2; scan-2 stays, the copy was made after it.
    expect(compactOperations(ops)).toEqual([
      ops[0],
      ops[2],
      ops[4],
      ops[5],
      ops[7],
      { op: 'use', name: 'prod' },
    ]);
  });

  it('deletes the file of a scan a later scan of the same dataset replaced', async () => {
    await inTempDir('cloudg-shared-rescan-', async (dir) => {
      const log = new MemoryLog();
      const a = await liveReplica(log, dir, { compactAfterFiles: 2 });
      expect((await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'prod' })).isError).toBe(false);
      for (let i = 0; i < 2; i += 1) {
        const scanned = await a.layer.callTool('run_scanners', { scanners: ['iam'], dataset: 'prod' });
        expect(scanned.isError, JSON.stringify(scanned.content)).toBe(false);
      }
      expect((await a.layer.callTool('select_dataset', { name: 'prod' })).isError).toBe(false);
      expect(log.base).toBe(3);
      const scans = log.appended.flatMap((o) => (o.op === 'findings' ? [o.path] : []));
      expect(log.snapshotOps).toEqual([log.appended[0], log.appended[2], { op: 'use', name: 'prod' }]);
      expect(await readdir(join(dir, 'out', 'shared-findings'))).toEqual([basename(scans[1] as string)]);
      const late = await liveReplica(log, dir);
      await late.layer.callTool('list_datasets', {});
      const ids = (w: Workspace) => w.get('prod').findings.map((f) => f.id);
      expect(ids(late.workspace)).toEqual(ids(a.workspace));
    });
  });

  it('is compacted under the lease once it grows, and a replica started later or left behind rebuilds from it', async () => {
    const log = new MemoryLog();
    const a = await replica(log, { compactAfter: 6 });
    const b = await replica(log);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await a.layer.callTool(name, args);
      expect(result.isError, JSON.stringify(result.content)).toBe(false);
    };
    await call('load_dataset', { path: INVENTORY, name: 'one' });
    await b.layer.callTool('list_datasets', {});
    expect(b.shared.applied).toBe(1);
    // B now sleeps through the rest: loads, an unload, a snapshot, a replace and uses.
    await call('load_dataset', { path: REPORT, name: 'two' });
    await call('snapshot_dataset', { dataset: 'one', new_name: 'frozen' });
    await call('unload_dataset', { name: 'one' });
    await call('load_dataset', { path: INVENTORY, name: 'scratch' });
    await call('unload_dataset', { name: 'scratch' });
    await call('select_dataset', { name: 'frozen' });
    // The sixth operation reached compactAfter (6): those six became the snapshot ('scratch',
    // loaded and unloaded, is gone; 'one' stays, a snapshot copied it), the select came after.
    expect(log.base).toBe(6);
    expect(log.entries.map((o) => o.op)).toEqual(['use']);
    expect(log.snapshotOps.map((o) => o.op)).toEqual(['load', 'load', 'snapshot', 'unload', 'use']);
    expect(JSON.stringify(log.snapshotOps)).not.toContain('scratch');
    await call('load_dataset', { path: INVENTORY, name: 'after' });
    await call('select_dataset', { name: 'frozen' });

    const late = await replica(log);
    await late.layer.callTool('list_datasets', {});
    expect(state(late.workspace)).toEqual(state(a.workspace));
    // B had applied one operation, before the compaction point: it rebuilds, 'one' is gone.
    await b.layer.callTool('list_datasets', {});
    expect(state(b.workspace)).toEqual(state(a.workspace));
    expect(b.workspace.has('one')).toBe(false);
    expect(b.shared.applied).toBe(9);
  });

  it('rebuilds a replica whose read came after a compaction its head did not show yet', async () => {
    const log = new MemoryLog();
    const [a, b] = [await replica(log), await replica(log)];
    await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'one' });
    await b.layer.callTool('list_datasets', {});
    await a.layer.callTool('load_dataset', { path: REPORT, name: 'two' });
    await a.layer.callTool('unload_dataset', { name: 'one' });
    await a.layer.callTool('select_dataset', { name: 'two' });
    // Another writer compacts up to seq 3 between B's head and B's read.
    log.snapshotOps = compactOperations(log.entries.slice(0, 3));
    log.entries.splice(0, 3);
    log.base = 3;
    const head = log.head.bind(log);
    log.head = async () => ({ ...(await head()), base: 0 });
    await b.layer.callTool('list_datasets', {});
    expect(state(b.workspace)).toEqual(state(a.workspace));
    expect(b.workspace.has('one')).toBe(false);
  });
});
