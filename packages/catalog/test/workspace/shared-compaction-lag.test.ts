/**
 * A replica part-way through applying the log while another replica compacts it (second review of
 * issue 20, Q1): the compaction deletes the files of datasets it dropped, so an operation the
 * lagging replica had read but not applied yet may name a file that is gone. It must end with
 * what the log gives (it rebuilds from the snapshot), not go on without that operation.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleEstateDir, type Workspace, type WorkspaceLease } from '../../src/index.js';
import { type LiveReplica, liveReplica, ok } from './live-replica.js';
import { MemoryLog } from './memory-log.js';

const INVENTORY = join(sampleEstateDir(), 'inventory');
const REPORT = join(sampleEstateDir(), 'report');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-compaction-lag-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a replica applying the log while another compacts it', () => {
  it('rebuilds when a file it was about to read went with the compaction, and ends as the others', async () => {
    const log = new MemoryLog();
    const a = await liveReplica(log, dir, { compactAfter: 5 });
    const skipped: string[] = [];
    const rebuilt: number[] = [];
    const c = await liveReplica(log, dir, {
      onSkipped: (entry, error) =>
        skipped.push(`${entry.seq} ${entry.operation.op}: ${(error as Error).message}`),
      onRebuilt: (seq) => rebuilt.push(seq),
    });
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'p' });
    await ok(a, 'load_dataset', { path: REPORT, name: 'q' });
    await ok(a, 'select_dataset', { name: 'p' });
    await ok(c, 'list_datasets', {});
    await ok(a, 'map_inventory', { providers: ['aws'], name: 'x' });
    // Unloading the active x hands over to q, the latest added: C must know x was there.
    await ok(a, 'unload_dataset', { name: 'x' });
    // C reads the log (the live collection of x among it); before it applies what it read, A's
    // next write compacts everything A applied, x's file included.
    const read = log.read.bind(log);
    let once = false;
    log.read = async (after) => {
      const entries = await read(after);
      if (!once && entries.length > 0) {
        once = true;
        const id = a.workspace.get('p').findings[0]?.id;
        await ok(a, 'suppress_findings', { finding_ids: [id], reason: 'accepted risk', dataset: 'p' });
      }
      return entries;
    };
    await ok(c, 'list_datasets', {});
    expect(log.base).toBeGreaterThan(0);
    expect(skipped).toEqual([]);
    expect(rebuilt).toEqual([log.base]);
    expect(c.workspace.names().sort()).toEqual(a.workspace.names().sort());
    expect(c.workspace.activeName).toBe('q');
    expect(c.workspace.activeName).toBe(a.workspace.activeName);
    const suppressed = (r: LiveReplica) =>
      r.workspace
        .get('p')
        .findings.filter((f) => f.is_suppressed)
        .map((f) => f.id)
        .sort();
    expect(suppressed(c)).toEqual(suppressed(a));
  });
});

describe('a change the log refused (the lease lost before the append)', () => {
  it("leaves the dataset it made on its replica as that replica's own: a later rebuild keeps it", async () => {
    const log = new MemoryLog();
    const rebuilt: number[] = [];
    const a = await liveReplica(log, dir, { onRebuilt: (seq) => rebuilt.push(seq) });
    const b = await liveReplica(log, dir, { compactAfter: 1 });
    const lease = log.lease.bind(log);
    let refuse = true;
    log.lease = async (signal): Promise<WorkspaceLease> => {
      const held = await lease(signal);
      if (!refuse) return held;
      refuse = false;
      return { ...held, append: async () => Promise.reject(new Error('the lease expired')) };
    };
    const refused = await a.layer.callTool('load_dataset', { path: INVENTORY, name: 'mine' });
    expect(refused.isError).toBe(true);
    expect(a.workspace.has('mine')).toBe(true);
    expect(log.appended).toEqual([]);
    // B's writes compact the log; A, behind the snapshot, rebuilds from it.
    await ok(b, 'load_dataset', { path: REPORT, name: 'theirs' });
    await ok(b, 'load_dataset', { path: INVENTORY, name: 'more' });
    await ok(a, 'list_datasets', {});
    expect(rebuilt.length).toBeGreaterThan(0);
    expect(a.workspace.names().sort()).toEqual(['mine', 'more', 'theirs']);
    expect(b.workspace.has('mine')).toBe(false);
  });
});

describe("a scan of a replica's own dataset", () => {
  it('reaches the same name on replicas where it is their own too, never the log-made dataset of that name', async () => {
    const log = new MemoryLog();
    const preload = { before: async (w: Workspace) => void (await w.preload(INVENTORY, { name: 'prod' })) };
    const a = await liveReplica(log, dir, preload);
    const b = await liveReplica(log, dir);
    const c = await liveReplica(log, dir, preload);
    // B's prod is the log's; on A and C the log's load of that name is refused (their own holds it).
    await ok(b, 'load_dataset', { path: INVENTORY, name: 'prod' });
    const before = b.workspace.get('prod').findings.length;
    const scanned = await ok(a, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    expect(scanned.new_findings).toBeGreaterThan(0);
    expect(log.entries.at(-1)).toMatchObject({ op: 'findings', dataset: 'prod', own: true });
    await ok(b, 'list_datasets', {});
    await ok(c, 'list_datasets', {});
    expect(b.workspace.get('prod').findings.length).toBe(before);
    expect(c.workspace.get('prod').findings.length).toBe(a.workspace.get('prod').findings.length);
  });
});
