/**
 * What a live collection and a scan do before they take a shared workspace's lease (second review
 * of issue 20): the heavy part (building the dataset, writing the file every replica reads,
 * normalising a scan's findings) runs first, so the lease is held only for a check of the log's
 * state and the append. Whether the work was done first is seen from inside the lease call: the
 * file is already there. The lease hold itself is measured in bench/lease-hold.ts.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sampleEstateDir, type WorkspaceLease } from '../../src/index.js';
import { type LiveReplica, liveReplica, ok } from './live-replica.js';
import { MemoryLog } from './memory-log.js';

const INVENTORY = join(sampleEstateDir(), 'inventory');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-lease-hold-'));
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

const files = (sub: string) => readdir(join(dir, 'out', sub)).catch(() => [] as string[]);
const ids = (r: LiveReplica, name: string) =>
  r.workspace
    .get(name)
    .findings.map((f) => `${f.id}:${f.is_suppressed}`)
    .sort();

/** Call `move` before each of the next `times` leases are taken (not those `move` takes itself). */
function beforeLeases(log: MemoryLog, times: number, move: (n: number) => Promise<void>): void {
  const lease = log.lease.bind(log);
  let n = 0;
  let moving = false;
  log.lease = async (signal): Promise<WorkspaceLease> => {
    if (n < times && !moving) {
      moving = true;
      try {
        await move(n++);
      } finally {
        moving = false;
      }
    }
    return lease(signal);
  };
}

describe('a live collection in a shared workspace', () => {
  it('has its dataset saved before it asks for the lease, and every replica reads that file', async () => {
    const log = new MemoryLog();
    const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
    const seen: string[][] = [];
    beforeLeases(log, 1, async () => {
      seen.push(await files('live'));
    });
    await ok(a, 'map_inventory', { providers: ['aws'], name: 'live-aws' });
    expect(seen[0]).toHaveLength(1);
    expect(seen[0]?.[0]).toMatch(/^live-aws\.\d+-[0-9a-f]{8}\.json$/);
    const op = log.entries.find((e) => e.op === 'live');
    expect(op && 'path' in op && basename(op.path)).toBe(seen[0]?.[0]);
    await ok(b, 'list_datasets', {});
    expect(b.workspace.get('live-aws').assets.length).toBe(a.workspace.get('live-aws').assets.length);
  });

  it('moves its file to the free name it took when its derived name was taken meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-02T00:15:00Z'));
    const log = new MemoryLog();
    const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
    beforeLeases(log, 1, async () => {
      await ok(b, 'load_dataset', { path: INVENTORY, name: 'inventory-20261202-001500' });
    });
    const collected = await ok(a, 'map_inventory', { providers: ['aws'] });
    expect(collected.dataset).toBe('inventory-20261202-001500-2');
    const op = log.entries.find((e) => e.op === 'live');
    expect(op && 'path' in op && basename(op.path)).toMatch(
      /^inventory-20261202-001500-2\.\d+-[0-9a-f]{8}\.json$/,
    );
    expect(await files('live')).toEqual([op && 'path' in op ? basename(op.path) : '']);
    await ok(b, 'list_datasets', {});
    expect(b.workspace.names().sort()).toEqual(a.workspace.names().sort());
  });
});

describe('a scan in a shared workspace', () => {
  it('has its findings merged and saved before it asks for the lease', async () => {
    const log = new MemoryLog();
    const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    const seen: string[][] = [];
    beforeLeases(log, 1, async () => {
      seen.push(await files('shared-findings'));
    });
    const scanned = await ok(a, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    expect(scanned.new_findings).toBeGreaterThan(0);
    expect(seen[0]).toHaveLength(1);
    const op = log.entries.find((e) => e.op === 'findings');
    expect(op && 'path' in op && basename(op.path)).toBe(seen[0]?.[0]);
    await ok(b, 'list_datasets', {});
    expect(ids(b, 'prod')).toEqual(ids(a, 'prod'));
  });

  it('is prepared again when another replica triaged the dataset meanwhile: both the decision and the findings stay', async () => {
    const log = new MemoryLog();
    const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    await ok(b, 'list_datasets', {});
    const target = b.workspace.get('prod').findings[0]?.id;
    beforeLeases(log, 1, async () => {
      await ok(b, 'suppress_findings', { finding_ids: [target], reason: 'accepted risk', dataset: 'prod' });
    });
    const before = a.workspace.get('prod').findings.length;
    const scanned = await ok(a, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    expect((scanned.errors as string[]).filter((e) => e.startsWith('store:'))).toEqual([]);
    expect(scanned.new_findings).toBeGreaterThan(0);
    expect(a.workspace.get('prod').findings.length).toBe(before + (scanned.new_findings as number));
    expect(a.workspace.get('prod').indexes.findingById(target ?? '')?.is_suppressed).toBe(true);
    await ok(b, 'list_datasets', {});
    expect(ids(b, 'prod')).toEqual(ids(a, 'prod'));
    // The file prepared before the triage went: only the one the log names is left.
    const op = log.entries.find((e) => e.op === 'findings');
    expect(await files('shared-findings')).toEqual([op && 'path' in op ? basename(op.path) : '']);
  });

  it('adds only its own new findings under the lease once the dataset changed before every try', async () => {
    const log = new MemoryLog();
    const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    await ok(b, 'list_datasets', {});
    const targets = b.workspace
      .get('prod')
      .findings.slice(0, 3)
      .map((f) => f.id);
    beforeLeases(log, 3, async (n) => {
      await ok(b, 'suppress_findings', {
        finding_ids: [targets[n]],
        reason: 'accepted risk',
        dataset: 'prod',
      });
    });
    const before = a.workspace.get('prod').findings.length;
    const scanned = await ok(a, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    expect((scanned.errors as string[]).filter((e) => e.startsWith('store:'))).toEqual([]);
    expect(scanned.new_findings).toBeGreaterThan(0);
    expect(a.workspace.get('prod').findings.length).toBe(before + (scanned.new_findings as number));
    for (const id of targets)
      expect(a.workspace.get('prod').indexes.findingById(id)?.is_suppressed).toBe(true);
    await ok(b, 'list_datasets', {});
    expect(ids(b, 'prod')).toEqual(ids(a, 'prod'));
    expect(await files('shared-findings')).toHaveLength(1);
  });
});

describe('a collection when the lease cannot be had (the log away)', () => {
  it('without a name, takes a free name if its derived one was taken meanwhile, as in one process', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-02T00:15:00Z'));
    const log = new MemoryLog();
    const a = await liveReplica(log, dir);
    // Another collection on this replica got the derived name while this one was being prepared.
    log.lease = async () => {
      await a.workspace.preload(INVENTORY, { name: 'inventory-20261202-001500' });
      throw new Error('redis is away');
    };
    const collected = await ok(a, 'map_inventory', { providers: ['aws'] });
    expect(collected.dataset).toBe('inventory-20261202-001500-2');
    expect(collected.errors).toContainEqual(
      expect.stringMatching(/^store: the dataset is on this replica only/),
    );
    expect(a.workspace.get('inventory-20261202-001500-2').assets.length).toBeGreaterThan(0);
    expect(await files('live')).toEqual([]);
  });
});

describe('a scan when the lease cannot be had (the log away)', () => {
  it("merges onto this replica's dataset only, says so, and leaves no file behind", async () => {
    const log = new MemoryLog();
    const a = await liveReplica(log, dir);
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    const before = a.workspace.get('prod').findings.length;
    log.lease = async () => Promise.reject(new Error('redis is away'));
    const scanned = await ok(a, 'run_scanners', { scanners: ['iam'], dataset: 'prod' });
    expect(scanned.errors).toContainEqual(
      expect.stringMatching(/^store: the new findings are on this replica only, the shared log refused them/),
    );
    expect(scanned.new_findings).toBeGreaterThan(0);
    expect(a.workspace.get('prod').findings.length).toBe(before + (scanned.new_findings as number));
    expect(await files('shared-findings')).toEqual([]);
    expect(log.entries.map((e) => e.op)).toEqual(['load']);
  });
});

describe('a writer behind the log', () => {
  it("applies another replica's collection before it waits for the lease, not while holding it", async () => {
    const log = new MemoryLog();
    const [a, b] = [await liveReplica(log, dir), await liveReplica(log, dir)];
    await ok(b, 'map_inventory', { providers: ['aws'], name: 'live-aws' });
    expect(a.workspace.has('live-aws')).toBe(false);
    const heldAtLease: boolean[] = [];
    beforeLeases(log, 1, async () => {
      heldAtLease.push(a.workspace.has('live-aws'));
    });
    await ok(a, 'load_dataset', { path: INVENTORY, name: 'prod' });
    expect(heldAtLease).toEqual([true]);
    expect(a.workspace.names().sort()).toEqual(['live-aws', 'prod']);
  });
});
