/**
 * Tool benchmark: the realistic generated estate (bench/estate, 50,000 assets and 100,000
 * findings by default) is loaded through `load_dataset`, then `get_asset` and `find_assets` (the
 * busiest account, a 500-item page) are timed through a real layer under the open, standard and
 * strict profiles of @cloudg/policy. Prints figures and whether each target is met; asserts
 * nothing.
 *
 *   pnpm --filter @cloudg/catalog bench:tools [-- --assets 50000 --seed 1 --runs 60]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createLogger, type Layer } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { createCatalogLayer, Workspace } from '../src/index.js';
import { generateEstate, writeEstate } from './estate/index.js';

// pnpm passes a literal `--` through to the script; it separates nothing here.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    assets: { type: 'string', default: '50000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '60' },
  },
});
const ASSETS = Number(values.assets);
const SEED = Number(values.seed);
const RUNS = Number(values.runs);
const PAGE = 500;
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

interface Timing {
  median: number;
  p95: number;
  /** Process CPU time per call (user + system), median: what the call costs when the machine is busy. */
  cpuMedian: number;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function time(runs: number, fn: (i: number) => Promise<void>): Promise<Timing> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const c = cpuMs();
    const t = performance.now();
    await fn(i);
    wall.push(performance.now() - t);
    cpu.push(cpuMs() - c);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { median: percentile(wall, 50), p95: percentile(wall, 95), cpuMedian: percentile(cpu, 50) };
}

const fmt = (n: number) => n.toFixed(2).padStart(8);
const verdict = (value: number, target: number) =>
  `${value <= target ? 'MET' : 'NOT MET'} (target <= ${target} ms, ratio ${(value / target).toFixed(2)})`;
const judge = (label: string, t: { wall: number; cpu: number }, target: number) =>
  console.log(`${label}: wall ${verdict(t.wall, target)}; cpu ${verdict(t.cpu, target)}`);

const silent = createLogger({ level: 'silent' });
const dir = await mkdtemp(join(tmpdir(), 'cloudg-tools-bench-'));
try {
  // The scanners' own reports are left out of the write: load_dataset reads the inventory.
  const { written, summary, refs } = await (async () => {
    const estate = generateEstate({ seed: SEED, assets: ASSETS, scans: false });
    const out = await writeEstate(dir, estate);
    // get_asset by internal id, spread over the whole estate.
    const ids = Array.from({ length: 997 }, (_, i) => estate.assets[(i * 7919) % ASSETS]?.id ?? '');
    return { written: out, summary: estate.summary, refs: ids };
  })();
  const ws = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
  const open = createCatalogLayer({ workspace: ws, logger: silent });

  const c0 = cpuMs();
  const t0 = performance.now();
  const loaded = await open.callTool('load_dataset', { path: written.inventoryDir, name: 'bench' });
  const loadMs = performance.now() - t0;
  const loadCpu = cpuMs() - c0;
  if (loaded.isError) throw new Error(`load failed: ${JSON.stringify(loaded.content)}`);
  const rss = process.memoryUsage().rss;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
  console.log(
    `estate            seed ${SEED}: ${summary.assets} assets in ${summary.accounts} accounts, ${summary.edges} edges, ${summary.findings} findings`,
  );
  console.log(
    `load_dataset      ${loadMs.toFixed(0)} ms wall, ${loadCpu.toFixed(0)} ms cpu (read, parse, index, summary)`,
  );
  // No figure from before the load: the generator's garbage is still in the heap then.
  console.log(`resident memory   ${mb(rss)} MB after load`);

  // Strict allows 240 calls a minute (burst 120); a clock that moves a second per check keeps the
  // bucket full, so the figures measure the call path rather than the limiter's refusals.
  let tick = 0;
  const clock = () => (tick += 1);
  // The busiest account: a full page, the most to sort.
  const [account = ''] =
    Object.entries(summary.assets_by_account)
      .filter(([id]) => id !== 'unknown')
      .sort((a, b) => b[1] - a[1])[0] ?? [];
  const findArgs = { account_id: account, limit: PAGE };

  const measure = async (label: string, layer: Layer<Workspace>) => {
    // The first call of a profile pays for building pipelines and, under strict, for minting the
    // pseudonyms of everything on the page (a cold vault).
    const c = cpuMs();
    const t = performance.now();
    const probe = await layer.callTool('find_assets', findArgs);
    const first = { wall: performance.now() - t, cpu: cpuMs() - c };
    if (probe.isError) throw new Error(`${label}: find_assets failed: ${JSON.stringify(probe.content[0])}`);
    const returned = (probe.structured as { returned: number }).returned;
    const get = await time(RUNS * 4, async (i) => {
      const r = await layer.callTool('get_asset', { ref: refs[i % refs.length] ?? '' });
      if (r.isError) throw new Error(`${label}: get_asset failed`);
    });
    const find = await time(RUNS, async () => {
      await layer.callTool('find_assets', findArgs);
    });
    console.log(`${label}`);
    console.log(
      `  get_asset          median ${fmt(get.median)} ms  p95 ${fmt(get.p95)} ms  cpu ${fmt(get.cpuMedian)} ms`,
    );
    console.log(
      `  find_assets (${returned})  median ${fmt(find.median)} ms  p95 ${fmt(find.p95)} ms  cpu ${fmt(find.cpuMedian)} ms  (first call ${first.wall.toFixed(1)} ms, cpu ${first.cpu.toFixed(1)} ms)`,
    );
    return find;
  };

  console.log(
    `load average      ${(await import('node:os'))
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} (wall times grow with it; cpu times do not)`,
  );
  judge('load <= 2 s', { wall: loadMs, cpu: loadCpu }, 2000);
  await measure('open', open);
  const standard = createCatalogLayer({
    workspace: ws,
    logger: silent,
    policy: Policy.fromProfile('standard', { logger: silent, clock }),
  });
  const std = await measure('standard', standard);
  const strictPolicy = Policy.fromProfile('strict', { logger: silent, clock });
  const strict = createCatalogLayer({ workspace: ws, logger: silent, policy: strictPolicy });
  await measure('strict, cold vault', strict);
  // Second run over the same vault: every pseudonym on the page already exists.
  const warm = await measure('strict, warm vault', strict);
  judge('find_assets standard median', { wall: std.median, cpu: std.cpuMedian }, 20);
  judge('find_assets strict warm median', { wall: warm.median, cpu: warm.cpuMedian }, 40);
} finally {
  await rm(dir, { recursive: true, force: true });
}
