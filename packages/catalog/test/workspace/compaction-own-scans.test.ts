/**
 * Compaction of the scans of replicas' own datasets (`findings` with `own`, a scan of a
 * `--dataset` preload): the latest per name stays, so the snapshot and the stored files do not grow
 * with every scan (final review of issue 20: each such scan was kept for good, and went instead
 * with a log dataset of the same name that it never touched).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleEstateDir, type Workspace, type WorkspaceOperation } from '../../src/index.js';
import { compactOperations } from '../../src/workspace/compact-operations.js';
import { liveReplica } from './live-replica.js';
import { MemoryLog } from './memory-log.js';

const ownScan = (dataset: string, n: number): WorkspaceOperation => ({
  op: 'findings',
  dataset,
  path: `/out/shared-findings/${dataset}.${n}.json`,
  own: true,
});
const load = (name: string): WorkspaceOperation => ({
  op: 'load',
  path: `/d/${name}`,
  name,
  kind: 'auto',
  normalise: true,
  activate: false,
  replace: false,
});

describe('compactOperations and scans of replicas own datasets', () => {
  it('keeps only the latest scan of a preload, however many compactions it went through', () => {
    let snapshot: WorkspaceOperation[] = [];
    for (let i = 0; i < 100; i++) snapshot = compactOperations([...snapshot, ownScan('prod', i)]);
    expect(snapshot).toEqual([ownScan('prod', 99)]);
    expect(compactOperations(Array.from({ length: 100 }, (_, i) => ownScan('prod', i)))).toEqual([
      ownScan('prod', 99),
    ]);
  });

  it('keeps each name own latest scan, and does not let a scan of a log dataset replace it', () => {
    const ops: WorkspaceOperation[] = [
      ownScan('prod', 1),
      ownScan('dev', 1),
      load('other'),
      { op: 'findings', dataset: 'other', path: '/out/shared-findings/other.1.json' },
      ownScan('prod', 2),
    ];
    // (The final `use` pins the active dataset the operations leave: the first one added.)
    expect(compactOperations(ops)).toEqual([
      ownScan('dev', 1),
      load('other'),
      ops[3],
      ownScan('prod', 2),
      { op: 'use', name: 'other' },
    ]);
  });

  it('keeps a preload scan when a log dataset of the same name ends: that dataset was not the scanned one', () => {
    const ops: WorkspaceOperation[] = [ownScan('prod', 1), load('prod'), { op: 'unload', name: 'prod' }];
    expect(compactOperations(ops)).toEqual([ownScan('prod', 1)]);
  });

  it('keeps the scan a snapshot of the preload copied, and the later one', () => {
    const copy: WorkspaceOperation = { op: 'snapshot', from: 'prod', name: 'prod-copy', replace: false };
    const ops: WorkspaceOperation[] = [ownScan('prod', 1), copy, ownScan('prod', 2), ownScan('prod', 3)];
    expect(compactOperations(ops)).toEqual([
      ownScan('prod', 1),
      copy,
      ownScan('prod', 3),
      { op: 'use', name: 'prod-copy' },
    ]);
  });

  it('drops the scans of preloads that an unload removed from every replica', () => {
    const unload: WorkspaceOperation = { op: 'unload', name: 'prod' };
    expect(compactOperations([ownScan('prod', 1), ownScan('prod', 2), unload])).toEqual([unload]);
  });
});

it('run_scanners on a preloaded dataset, again and again: the compacted log keeps one scan and the output directory one findings file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cloudg-own-scans-'));
  try {
    const log = new MemoryLog();
    const inventory = join(sampleEstateDir(), 'inventory');
    const replica = await liveReplica(log, dir, {
      before: async (w: Workspace) => void (await w.preload(inventory, { name: 'prod' })),
      compactAfter: 2,
    });
    for (let i = 0; i < 12; i++) {
      const scanned = await replica.layer.callTool('run_scanners', { scanners: ['iam'], dataset: 'prod' });
      expect(scanned.isError).toBe(false);
      // A cheap change, so the next writer compacts.
      await replica.layer.callTool('select_dataset', { name: 'prod' });
    }
    expect(log.base).toBeGreaterThan(20);
    expect(log.snapshotOps.filter((op) => op.op === 'findings')).toHaveLength(1);
    // The latest scan's file, and at most the one of a scan the log holds after the snapshot.
    expect((await readdir(join(dir, 'out', 'shared-findings'))).length).toBeLessThanOrEqual(2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
