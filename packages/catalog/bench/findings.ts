/**
 * Findings benchmark on the realistic generated estate (bench/estate: 50,000 assets and 100,000
 * findings by default), loaded through load_dataset; then, through a real layer under the
 * allow-all policy, `list_findings` (500 per page, filtered and sorted), `findings_summary`
 * (every grouping) and `top_risks`, before and after a suppression. Prints wall and CPU time
 * against the targets of issue 14; asserts nothing. Wall times grow with the machine's load; the
 * CPU time beside them does not.
 *
 *   pnpm --filter @cloudg/catalog bench:findings [-- --assets 50000 --seed 1 --runs 15]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createLogger, type Layer } from '@cloudg/core';
import { createCatalogLayer, Workspace } from '../src/index.js';
import { generateEstate, writeEstate } from './estate/index.js';
import { type Timing, time } from './timing.js';

// pnpm passes a literal `--` through to the script; it separates nothing here.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    assets: { type: 'string', default: '50000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '15' },
  },
});
const ASSETS = Number(values.assets);
const SEED = Number(values.seed);
const RUNS = Number(values.runs);

async function callOk(layer: Layer<Workspace>, name: string, args: Record<string, unknown>) {
  const result = await layer.callTool(name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content[0])}`);
  return result.structured as Record<string, unknown>;
}

function report(label: string, t: Timing, target: number): void {
  const verdict = (v: number) => (v <= target ? 'MET' : 'NOT MET');
  console.log(
    `${label.padEnd(48)} wall median ${t.median.toFixed(1).padStart(7)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)}) ${verdict(t.median)}; cpu ${t.cpu.toFixed(1).padStart(7)} ms ${verdict(t.cpu)} (target <= ${target} ms)`,
  );
}

const dir = await mkdtemp(join(tmpdir(), 'cloudg-findings-bench-'));
try {
  // The scanners' own reports are left out: load_dataset reads the inventory with its findings.
  const estate = generateEstate({ seed: SEED, assets: ASSETS, scans: false });
  await writeEstate(dir, estate);
  const ids = estate.findings.map((f) => f.id);
  const tool = estate.findings[0]?.source_tool ?? 'prowler';
  const ws = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
  const layer = createCatalogLayer({ workspace: ws, logger: createLogger({ level: 'silent' }) });
  const t0 = performance.now();
  await callOk(layer, 'load_dataset', { path: join(dir, 'inventory'), name: 'bench' });
  console.log(
    `estate       seed ${SEED}, ${ASSETS} assets, ${ids.length} findings; load_dataset ${(performance.now() - t0).toFixed(0)} ms`,
  );
  console.log(
    `load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} (wall times grow with it; CPU times do not)`,
  );

  // The first call of a dataset matches every finding to its asset and builds the columns and the
  // sort order; later pages and queries reuse them.
  const filtered = { min_severity: 'MEDIUM', framework: 'cis', sort_by: 'risk', limit: 500 };
  report(
    'list_findings, first call of the dataset',
    await time(1, async () => {
      await callOk(layer, 'list_findings', filtered);
    }),
    30,
  );
  let cursor = '';
  report(
    'list_findings 500/page, min_severity+framework',
    await time(RUNS, async () => {
      const page = await callOk(layer, 'list_findings', { ...filtered, cursor });
      cursor = (page.next_cursor as string | null) ?? '';
    }),
    30,
  );
  const byTool = { source_tool: tool, sort_by: 'severity', limit: 500 };
  report(
    'list_findings, first call of another sort order',
    await time(1, async () => {
      await callOk(layer, 'list_findings', byTool);
    }),
    30,
  );
  report(
    'list_findings 500/page, source_tool, by severity',
    await time(RUNS, async () => {
      await callOk(layer, 'list_findings', byTool);
    }),
    30,
  );
  // A grouping is counted once per dataset version; its first call pays for it.
  for (const group of ['severity', 'source_tool', 'framework', 'asset_type', 'account', 'asset']) {
    report(
      `findings_summary group_by=${group}, first call`,
      await time(1, async () => {
        await callOk(layer, 'findings_summary', { group_by: group });
      }),
      100,
    );
  }
  report(
    'suppress_findings + findings_summary by account',
    await time(RUNS, async (i) => {
      await callOk(layer, 'suppress_findings', { finding_ids: [ids[1000 + i]], reason: 'bench suppression' });
      await callOk(layer, 'findings_summary', { group_by: 'account' });
    }),
    100,
  );
  // The first top_risks builds the graphs it reads (flow and dependency graphs, reachability).
  report(
    'top_risks top=10, first call (builds the graphs)',
    await time(1, async () => {
      await callOk(layer, 'top_risks', { top: 10 });
    }),
    2000,
  );
  report(
    'top_risks top=10',
    await time(RUNS, async () => {
      await callOk(layer, 'top_risks', { top: 10 });
    }),
    2000,
  );
  report(
    'suppress_findings + top_risks',
    await time(5, async (i) => {
      await callOk(layer, 'suppress_findings', { finding_ids: [ids[i + 1]], reason: 'bench suppression' });
      await callOk(layer, 'top_risks', { top: 10 });
    }),
    2000,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
