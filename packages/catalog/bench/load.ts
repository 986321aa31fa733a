/**
 * Load benchmark: the realistic generated estate (bench/estate, 50,000 assets and 100,000
 * findings by default) is written to a temp directory and its inventory loaded through the
 * workspace (read, validate, index, the findings report beside the map), then queried by account
 * the way find_assets does (index lookup, name sort, one 500-item page of briefs). Prints figures,
 * asserts nothing.
 *
 *   pnpm --filter @cloudg/catalog bench [-- --assets 50000 --seed 1]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { assetBrief } from '../src/conventions/briefs.js';
import { paginate } from '../src/conventions/paging.js';
import { resolveAssetRef } from '../src/conventions/references.js';
import { sortAssets } from '../src/conventions/sorting.js';
import { Workspace } from '../src/index.js';
import { generateEstate, writeEstate } from './estate/index.js';

// pnpm passes a literal `--` through to the script; it separates nothing here.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { assets: { type: 'string', default: '50000' }, seed: { type: 'string', default: '1' } },
});
const ASSETS = Number(values.assets);
const SEED = Number(values.seed);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

const dir = await mkdtemp(join(tmpdir(), 'cloudg-bench-'));
try {
  // Only the inventory is loaded here; the scanners' own reports are left out of the write. The
  // generated objects go out of scope before the load, so the memory figures are the dataset's.
  const prepare = async () => {
    const c0 = cpuMs();
    const g0 = performance.now();
    const estate = generateEstate({ seed: SEED, assets: ASSETS, scans: false });
    const genMs = performance.now() - g0;
    const genCpu = cpuMs() - c0;
    const written = await writeEstate(dir, estate);
    return {
      written,
      summary: estate.summary,
      missRef: `${estate.assets[estate.assets.length - 1]?.name ?? 'asset'}x`,
      genMs,
      genCpu,
      writeMs: performance.now() - g0 - genMs,
      writeCpu: cpuMs() - c0 - genCpu,
    };
  };
  const { written, summary: s, missRef, genMs, genCpu, writeMs, writeCpu } = await prepare();

  const ws = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const ds = await ws.load(written.inventoryDir, { name: 'bench' });
  const loadMs = performance.now() - t0;
  const loadCpuMs = cpuMs() - cpu0;
  const t1 = performance.now();
  const byAccount = ds.indexes.byAccount;
  const indexMs = performance.now() - t1;

  // The busiest account: the page is full and the sort has the most to do.
  const [account = '', accountAssets = 0] =
    Object.entries(s.assets_by_account)
      .filter(([id]) => id !== 'unknown')
      .sort((a, b) => b[1] - a[1])[0] ?? [];
  const queryOnce = () => {
    const matches = byAccount.get(account) ?? [];
    const sorted = sortAssets(ds, matches, 'name');
    const page = paginate(sorted, { dataset: ds, query: { account }, limit: 500 });
    return page.items.map((a) => assetBrief(ds, a));
  };
  const first = queryOnce();
  const runs = 50;
  const t2 = performance.now();
  for (let i = 0; i < runs; i += 1) queryOnce();
  const queryMs = (performance.now() - t2) / runs;

  // A reference that matches nothing walks every name for suggestions: the slowest lookup.
  const t3 = performance.now();
  let suggestions = 0;
  try {
    resolveAssetRef(ds, missRef);
  } catch (e) {
    suggestions = ((e as { data?: { suggestions?: unknown[] } }).data?.suggestions ?? []).length;
  }
  const missMs = performance.now() - t3;

  const rss = process.memoryUsage().rss;
  console.log(
    `estate            seed ${SEED}: ${ds.assets.length} assets in ${s.accounts} accounts, ${ds.edges.length} edges, ${ds.findings.length} findings, ${mb(written.bytes)} MB`,
  );
  console.log(
    `generate + write  ${genMs.toFixed(0)} + ${writeMs.toFixed(0)} ms wall, ${genCpu.toFixed(0)} + ${writeCpu.toFixed(0)} ms cpu (inventory only)`,
  );
  console.log(
    `load              ${loadMs.toFixed(0)} ms wall (target <= 2000 ms, ratio ${(loadMs / 2000).toFixed(2)})`,
  );
  console.log(`load cpu          ${loadCpuMs.toFixed(0)} ms (wall time inflates when the machine is busy)`);
  console.log(`account index     ${indexMs.toFixed(1)} ms (built on first use)`);
  console.log(
    `find by account   ${queryMs.toFixed(2)} ms per query, ${first.length} of ${accountAssets} results (index + sort + page + briefs)`,
  );
  console.log(
    `reference miss    ${missMs.toFixed(1)} ms with ${suggestions} suggestions (substring + fuzzy scan)`,
  );
  // No figure from before the load: the generator's garbage is still in the heap then.
  console.log(`rss               ${mb(rss)} MB after the load and queries`);
  console.log(
    `load average      ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} (wall times grow with it; cpu times much less)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
