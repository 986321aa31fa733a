/**
 * How long a live collection and a scan's merge hold a shared workspace's lease (issue 20, second
 * review), and the longest event-loop block meanwhile: a holder that blocks longer than the log's
 * renewal interval loses the lease. An in-memory log stands for Redis; the estate is the
 * generated one. Usage: `npx tsx --conditions=@cloudg/source bench/lease-hold.ts [assets] [runs]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { configureLive, SharedWorkspace, Workspace } from '../src/index.js';
import { keepScanResults } from '../src/live/scan-store.js';
import { addLiveDataset } from '../src/live/store.js';
import { MemoryLog } from '../test/workspace/memory-log.js';
import { generateEstate } from './estate/index.js';

const assets = Number(process.argv[2] ?? 50_000);
const runs = Number(process.argv[3] ?? 3);
const dir = await mkdtemp(join(tmpdir(), 'cloudg-lease-'));
const estate = generateEstate({ seed: 1, assets });
const log = new MemoryLog();
const held: number[] = [];
const take = log.lease.bind(log);
log.lease = async (signal) => {
  const lease = await take(signal);
  const since = performance.now();
  return {
    ...lease,
    release: async () => {
      held.push(performance.now() - since);
      await lease.release();
    },
  };
};
const workspace = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
configureLive(workspace, { persist: false });
const shared = new SharedWorkspace(workspace, log, { pollMs: 60_000 });
await shared.start();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const collections: number[] = [];
const scans: number[] = [];
for (let run = 0; run < runs; run++) {
  const blocks = monitorEventLoopDelay({ resolution: 10 });
  blocks.enable();
  const { dataset } = await addLiveDataset(
    workspace,
    { ...estate, providers: ['aws'] },
    { name: `live-${run}`, named: true, activate: true, replace: false, tool: 'map_inventory' },
  );
  blocks.disable();
  collections.push(held.at(-1) ?? 0);
  console.log(
    `collection ${run}: ${dataset.assets.length} assets, ${dataset.findings.length} findings; lease held ${collections.at(-1)?.toFixed(0)} ms; longest event-loop block ${(blocks.max / 1e6).toFixed(0)} ms`,
  );
  const scanBlocks = monitorEventLoopDelay({ resolution: 10 });
  scanBlocks.enable();
  // A scan that found nothing new: the merge and the shared file of every finding remain.
  await keepScanResults(workspace, dataset, async (t) => ({
    findings: [...t.findings],
    compliance: t.compliance,
  }));
  scanBlocks.disable();
  scans.push(held.at(-1) ?? 0);
  console.log(
    `scan merge ${run}: lease held ${scans.at(-1)?.toFixed(0)} ms; longest event-loop block ${(scanBlocks.max / 1e6).toFixed(0)} ms`,
  );
}
console.log(
  `median lease hold: collection ${median(collections).toFixed(0)} ms (${Math.min(...collections).toFixed(0)}-${Math.max(...collections).toFixed(0)}), scan ${median(scans).toFixed(0)} ms (${Math.min(...scans).toFixed(0)}-${Math.max(...scans).toFixed(0)})`,
);
shared.stop();
await rm(dir, { recursive: true, force: true });
