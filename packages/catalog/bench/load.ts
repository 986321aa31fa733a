/**
 * Load benchmark: a generated 50,000-asset inventory map is written to a temp directory, loaded
 * through the workspace (read, validate, index), then queried by account the way find_assets
 * will (index lookup, name sort, one 500-item page of briefs). Prints figures, asserts nothing.
 *
 *   pnpm --filter @cloudg/catalog bench [-- --assets 50000 --accounts 100]
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { assetBrief } from '../src/conventions/briefs.js';
import { paginate } from '../src/conventions/paging.js';
import { resolveAssetRef } from '../src/conventions/references.js';
import { sortAssets } from '../src/conventions/sorting.js';
import { Workspace } from '../src/index.js';
import { inventoryMap } from './synthetic-inventory.js';

// pnpm passes a literal `--` through to the script; it separates nothing here.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: { assets: { type: 'string', default: '50000' }, accounts: { type: 'string', default: '100' } },
});
const ASSETS = Number(values.assets);
const ACCOUNTS = Number(values.accounts);
const dir = await mkdtemp(join(tmpdir(), 'cloudg-bench-'));
try {
  const mapPath = join(dir, 'inventory-map.json');
  await writeFile(mapPath, JSON.stringify(inventoryMap({ assets: ASSETS, accounts: ACCOUNTS })));
  const bytes = (await stat(mapPath)).size;
  const rssBefore = process.memoryUsage().rss;

  const ws = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const ds = await ws.load(dir, { name: 'bench' });
  const loadMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const loadCpuMs = (cpu.user + cpu.system) / 1000;
  const t1 = performance.now();
  const byAccount = ds.indexes.byAccount;
  const indexMs = performance.now() - t1;

  const account = '100000000007';
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
    resolveAssetRef(ds, 'res-49999x');
  } catch (e) {
    suggestions = ((e as { data?: { suggestions?: unknown[] } }).data?.suggestions ?? []).length;
  }
  const missMs = performance.now() - t3;

  const rss = process.memoryUsage().rss;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `assets            ${ds.assets.length} (${ACCOUNTS} accounts), edges ${ds.edges.length}, file ${mb(bytes)} MB`,
  );
  console.log(
    `load              ${loadMs.toFixed(0)} ms wall (target <= 2000 ms, ratio ${(loadMs / 2000).toFixed(2)})`,
  );
  console.log(`load cpu          ${loadCpuMs.toFixed(0)} ms (wall time inflates when the machine is busy)`);
  console.log(`account index     ${indexMs.toFixed(1)} ms (built on first use)`);
  console.log(
    `find by account   ${queryMs.toFixed(2)} ms per query, ${first.length} results (index + sort + page + briefs)`,
  );
  console.log(
    `reference miss    ${missMs.toFixed(1)} ms with ${suggestions} suggestions (substring + fuzzy scan)`,
  );
  console.log(`rss               ${mb(rss)} MB (before load ${mb(rssBefore)} MB)`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
