/**
 * A shared workspace under the interleavings a review found wrong: every replica must end with
 * the same log-made datasets, findings and triage, whatever another replica did while a scan
 * or a collection ran, and with compaction and rebuilds in between. The other replica's moves
 * are made from inside the log's lease call, the moment before this replica takes the lease.
 */
import { mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  configureLive,
  restoreLiveDatasets,
  sampleEstateDir,
  Workspace,
  type WorkspaceLease,
  type WorkspaceOperation,
} from '../../src/index.js';
import { saveLiveDataset } from '../../src/live/store.js';
import { type LiveReplica, type LiveReplicaOptions, liveReplica, ok } from './live-replica.js';
import { MemoryLog } from './memory-log.js';

const INVENTORY = join(sampleEstateDir(), 'inventory');
const REPORT = join(sampleEstateDir(), 'report');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-shared-races-'));
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

/** Run `move` once, just before the next lease is taken (while the caller's slow part is done). */
function beforeNextLease(log: MemoryLog, move: () => Promise<void>): void {
  const lease = log.lease.bind(log);
  let done = false;
  log.lease = async (signal): Promise<WorkspaceLease> => {
    if (!done) {
      done = true;
      await move();
    }
    return lease(signal);
  };
}

const ids = (r: LiveReplica, name: string) =>
  r.workspace
    .get(name)
    .findings.map((f) => f.id)
    .sort();
const held = (r: LiveReplica) =>
  r.workspace
    .names()
    .sort()
    .map((n) => [n, r.workspace.get(n).assets.length, r.workspace.get(n).findings.length]);

describe('a scan whose dataset another replica replaced while it ran', () => {
  it('adds its findings nowhere, says so, and every replica (and a later one) holds the new dataset alike', async () => {
    const log = new MemoryLog();
    const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
    await ok(b, 'load_dataset', { path: INVENTORY, name: 'prod' });
    // While A scans, B loads prod again (replace): in one process the scan's dataset is gone.
    beforeNextLease(log, async () => {
      await ok(b, 'load_dataset', { path: INVENTORY, name: 'prod', replace: true });
    });
    const scanned = await ok(a, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    expect(scanned.new_findings).toBe(0);
    expect(scanned.errors).toContainEqual(
      expect.stringMatching(/^store: dataset 'prod' was unloaded or replaced/),
    );
    expect(log.entries.map((e) => e.op)).toEqual(['load', 'load']);
    await ok(b, 'list_datasets', {});
    const c = await liveReplica(log, dir);
    await ok(c, 'list_datasets', {});
    expect(ids(a, 'prod')).toEqual(ids(b, 'prod'));
    expect(ids(c, 'prod')).toEqual(ids(b, 'prod'));
  });
});

describe('a compaction', () => {
  it('never makes a replica that had applied the whole log rebuild', async () => {
    const log = new MemoryLog();
    const compacted: number[] = [];
    const a = await liveReplica(log, dir, { compactAfter: 3, onCompacted: (s) => compacted.push(s) });
    const rebuilt: number[] = [];
    const b = await liveReplica(log, dir, { onRebuilt: (s) => rebuilt.push(s) });
    for (const name of ['one', 'two', 'three', 'four']) {
      await ok(a, 'load_dataset', { path: INVENTORY, name });
      await ok(b, 'list_datasets', {});
    }
    expect(rebuilt).toEqual([]);
    // The fourth write compacted the three before it (what B had applied), then appended.
    expect(compacted).toEqual([3]);
    expect(log.base).toBe(3);
    expect(b.shared.applied).toBe(4);
    expect(held(b)).toEqual(held(a));
    // A replica started now rebuilds from the snapshot, and holds the same.
    const late = await liveReplica(log, dir, { onRebuilt: (s) => rebuilt.push(s) });
    expect(rebuilt).toEqual([3]);
    expect(held(late)).toEqual(held(a));
  });
});

describe('the compaction point', () => {
  it('is what the writer had applied when it took the lease: an append it had not applied yet stays in the log', async () => {
    const log = new MemoryLog();
    const compacted: number[] = [];
    const a = await liveReplica(log, dir, { compactAfter: 1, onCompacted: (s) => compacted.push(s) });
    const b = await liveReplica(log, dir);
    const rebuilt: number[] = [];
    const z = await liveReplica(log, dir, { onRebuilt: (s) => rebuilt.push(s) });
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'one' });
    await ok(z, 'list_datasets', {});
    // B appends; then A writes before A or Z applied B's append.
    await ok(b, 'load_dataset', { path: REPORT, name: 'two' });
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'three' });
    expect(compacted).toEqual([1]);
    await ok(z, 'list_datasets', {});
    expect(rebuilt).toEqual([]);
    expect(held(z)).toEqual(held(a));
  });
});

describe('a live collection while another replica compacts the log', () => {
  it('is held by the collecting replica too, even when it was behind the compaction and rebuilt', async () => {
    const log = new MemoryLog();
    const a = await liveReplica(log, dir, { compactAfter: 1 });
    const rebuilt: number[] = [];
    const b = await liveReplica(log, dir, { onRebuilt: (s) => rebuilt.push(s) });
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    await ok(b, 'list_datasets', {});
    // While B collects, A writes twice; each write compacts what came before it, so B (which
    // has applied only the first) is behind the snapshot when it takes the lease.
    beforeNextLease(log, async () => {
      await ok(a, 'load_dataset', { path: REPORT, name: 'other' });
      await ok(a, 'unload_dataset', { name: 'other' });
    });
    const collected = await ok(b, 'map_inventory', { providers: ['aws'], name: 'live-aws' });
    expect(collected.dataset).toBe('live-aws');
    expect((collected.errors as string[]).filter((e) => e.startsWith('store:'))).toEqual([]);
    expect(rebuilt).toEqual([2]);
    expect(b.workspace.has('live-aws')).toBe(true);
    await ok(a, 'list_datasets', {});
    expect(held(b)).toEqual(held(a));
    expect(b.workspace.activeName).toBe(a.workspace.activeName);
  });
});

describe('a scan while another replica compacts the log', () => {
  /** A, compacting at every write, loads prod; B (with `options`) has applied it. */
  async function prodOnBoth(options: LiveReplicaOptions = {}) {
    const log = new MemoryLog();
    const a = await liveReplica(log, dir, { compactAfter: 1 });
    const b = await liveReplica(log, dir, options);
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    await ok(b, 'list_datasets', {});
    return { log, a, b };
  }

  /** B's scan of prod stored its findings and added its new ones, and A holds the same. */
  async function expectScanOnBoth(
    a: LiveReplica,
    b: LiveReplica,
    before: string[],
    scanned: Record<string, unknown>,
  ) {
    expect((scanned.errors as string[]).filter((e) => e.startsWith('store:'))).toEqual([]);
    expect(scanned.new_findings).toBeGreaterThan(0);
    expect(ids(b, 'prod').length).toBe(before.length + (scanned.new_findings as number));
    await ok(a, 'list_datasets', {});
    expect(ids(a, 'prod')).toEqual(ids(b, 'prod'));
  }

  it('reaches every replica, the scanning one included, when that replica had followed the log', async () => {
    const { log, a, b } = await prodOnBoth();
    const before = ids(b, 'prod');
    beforeNextLease(log, async () => {
      await ok(a, 'load_dataset', { path: REPORT, name: 'other' });
    });
    const scanned = await ok(b, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    await expectScanOnBoth(a, b, before, scanned);
  });

  it('reaches every replica when the scanning replica had to rebuild: the dataset it reloaded is the one scanned', async () => {
    const rebuilt: number[] = [];
    const { log, a, b } = await prodOnBoth({ onRebuilt: (s) => rebuilt.push(s) });
    const before = ids(b, 'prod');
    const scannedObject = b.workspace.get('prod');
    // Two compacting writes while B scans: B is behind the snapshot when it takes the lease.
    beforeNextLease(log, async () => {
      await ok(a, 'load_dataset', { path: REPORT, name: 'other' });
      await ok(a, 'unload_dataset', { name: 'other' });
    });
    const scanned = await ok(b, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    expect(rebuilt).toEqual([2]);
    expect(b.workspace.get('prod')).not.toBe(scannedObject);
    await expectScanOnBoth(a, b, before, scanned);
  });

  it('adds nothing, and says so, when the dataset was replaced in what the rebuild skipped', async () => {
    const { log, a, b } = await prodOnBoth();
    beforeNextLease(log, async () => {
      await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod', replace: true });
      await ok(a, 'load_dataset', { path: REPORT, name: 'other' });
    });
    const scanned = await ok(b, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    expect(scanned.errors).toContainEqual(
      expect.stringMatching(/^store: dataset 'prod' was unloaded or replaced/),
    );
    expect(log.appended.some((e) => e.op === 'findings')).toBe(false);
    await ok(a, 'list_datasets', {});
    expect(ids(b, 'prod')).toEqual(ids(a, 'prod'));
  });
});

describe('two collections given one name on two replicas', () => {
  /** Replica C's collection of `name`, one asset fewer than the sample, saved as C saves it. */
  async function otherCollection(name: string): Promise<WorkspaceOperation> {
    const own = new Workspace({
      allowedRoots: [sampleEstateDir(), dir],
      outputDir: join(dir, 'out'),
      cwd: dir,
    });
    const dataset = await own.load(INVENTORY, { name });
    dataset.assets = dataset.assets.slice(1);
    const path = await saveLiveDataset(own, dataset, 'map_inventory', { perSave: true });
    return { op: 'live', path, name, activate: true, replace: false };
  }

  it('refuse the later one with -32602 as one process does, and a compaction keeps the one in effect', async () => {
    const log = new MemoryLog();
    const a = await liveReplica(log, dir, { compactAfterFiles: 1 });
    const b = await liveReplica(log, dir);
    const theirs = await otherCollection('live-aws');
    beforeNextLease(log, async () => {
      log.entries.push(theirs);
      log.appended.push(theirs);
    });
    const refused = await a.layer.callTool('map_inventory', { providers: ['aws'], name: 'live-aws' });
    expect(refused.isError).toBe(true);
    expect(refused.meta?.['cloudg/error_code']).toBe(-32602);
    // Nothing of A's in the log.
    expect(log.appended).toEqual([theirs]);
    await ok(b, 'list_datasets', {});
    const sample = a.workspace.get('live-aws').assets.length;
    expect(b.workspace.get('live-aws').assets.length).toBe(sample);
    // A's next write compacts the log (one stored file): C's collection, the one in effect,
    // stays, and so does its file.
    await ok(a, 'select_dataset', { name: 'live-aws' });
    expect(log.base).toBe(1);
    expect(await readdir(join(dir, 'out', 'live'))).toEqual([basename((theirs as { path: string }).path)]);
    const late = await liveReplica(log, dir);
    expect(late.workspace.get('live-aws').assets.length).toBe(sample);
  });

  it('a derived name (none given) taken meanwhile: the collection takes a free name instead', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-02T00:15:00Z'));
    const log = new MemoryLog();
    const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
    const theirs = await otherCollection('inventory-20261202-001500');
    beforeNextLease(log, async () => {
      log.entries.push(theirs);
    });
    const collected = await ok(a, 'map_inventory', { providers: ['aws'] });
    expect(collected.dataset).toBe('inventory-20261202-001500-2');
    await ok(b, 'list_datasets', {});
    expect(held(b)).toEqual(held(a));
    expect(a.workspace.names()).toEqual(['inventory-20261202-001500', 'inventory-20261202-001500-2']);
  });
});

describe('--restore-live on a shared output directory', () => {
  it('brings back no collection the log unloaded: a restarted replica holds what the log gives', async () => {
    const log = new MemoryLog();
    const a = await liveReplica(log, dir);
    await ok(a, 'map_inventory', { providers: ['aws'], name: 'live-aws' });
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'kept' });
    await ok(a, 'unload_dataset', { name: 'live-aws' });
    // B restarts as serve does: the log first, then the restore.
    const b = await liveReplica(log, dir);
    configureLive(b.workspace, { persist: true });
    expect(await restoreLiveDatasets(b.workspace)).toEqual({ restored: [], skipped: [] });
    expect(held(b)).toEqual(held(a));
  });

  it("restores a save made without a shared log as the replica's own, and names a file it could not add", async () => {
    const log = new MemoryLog();
    const b = await liveReplica(log, dir);
    const own = new Workspace({
      allowedRoots: [sampleEstateDir(), dir],
      outputDir: join(dir, 'out'),
      cwd: dir,
    });
    await saveLiveDataset(own, await own.load(INVENTORY, { name: 'old' }), 'map_inventory');
    // A save whose name no dataset may take (written by hand, say), under a name of its own.
    const bad = await own.load(INVENTORY, { name: 'bad' });
    bad.name = 'not a name';
    const saved = await saveLiveDataset(own, bad, 'map_inventory');
    await rename(saved, join(dir, 'out', 'live', 'odd.json'));
    const outcome = await restoreLiveDatasets(b.workspace);
    expect(outcome.restored).toEqual(['old']);
    expect(outcome.skipped).toEqual([
      { file: 'odd.json', reason: expect.stringContaining('Invalid dataset name') },
    ]);
  });
});

describe("an unload of replicas' own preloads", () => {
  it('is kept by a compaction, so a replica started later with the same preload unloads it too', async () => {
    const log = new MemoryLog();
    const preload = async (w: Workspace) => {
      await w.preload(INVENTORY, { name: 'base' });
    };
    const a = await liveReplica(log, dir, { compactAfter: 2, before: preload });
    const b = await liveReplica(log, dir, { before: preload });
    await ok(a, 'unload_dataset', { name: 'base' });
    await ok(a, 'load_dataset', { path: REPORT, name: 'one' });
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'two' });
    expect(log.base).toBe(2);
    await ok(b, 'list_datasets', {});
    const late = await liveReplica(log, dir, { before: preload });
    expect(held(b)).toEqual(held(a));
    expect(held(late)).toEqual(held(a));
    expect(a.workspace.has('base')).toBe(false);
  });
});

describe('triage decisions kept in a state directory, across a compaction', () => {
  it('reach a later dataset of the same name on a replica started after the compaction, as on the others', async () => {
    const log = new MemoryLog();
    const a = await liveReplica(log, dir, { compactAfter: 4, stateDir: join(dir, 'state-a') });
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    const [first, second] = a.workspace.get('prod').findings.map((f) => f.id);
    await ok(a, 'suppress_findings', { finding_ids: [first], reason: 'accepted risk' });
    await ok(a, 'suppress_findings', { finding_ids: [second], reason: 'false positive' });
    await ok(a, 'unload_dataset', { name: 'prod' });
    // The next write compacts the four operations before it: prod's generation has ended.
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    expect(log.base).toBe(4);
    expect(log.snapshotOps.map((o) => o.op)).toEqual(['triage']);
    const late = await liveReplica(log, dir, { stateDir: join(dir, 'state-late') });
    const suppressed = (r: LiveReplica) =>
      r.workspace
        .get('prod')
        .findings.filter((f) => f.is_suppressed)
        .map((f) => [f.id, f.suppression_reason]);
    expect(suppressed(a)).toEqual(
      expect.arrayContaining([
        [first, 'accepted risk'],
        [second, 'false positive'],
      ]),
    );
    expect(suppressed(late)).toEqual(suppressed(a));
  });
});
