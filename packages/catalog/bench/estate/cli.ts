/**
 * Write a generated estate to a directory, for benchmarks run by hand and for exploring it
 * through the server:
 *
 *   pnpm --filter @cloudg/catalog generate:estate -- --seed 1 --assets 50000 --out /tmp/estate
 *   pnpm cloudg-mcp serve --transport http --dataset estate=/tmp/estate/inventory
 *
 * A directory that already holds something other than an earlier estate is left alone (exit 2);
 * an earlier estate there is replaced, so no file of another seed lingers.
 */
import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateEstate, INVENTORY_DIR, MIN_ASSETS, SCANS_DIR, writeEstate } from './index.js';

const SUMMARY_FILE = 'estate-summary.json';

function fail(message: string): never {
  process.stderr.write(`generate:estate: ${message}\n`);
  process.exit(2);
}

// pnpm passes a literal `--` through to the script; it separates nothing here.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    seed: { type: 'string', default: '1' },
    assets: { type: 'string', default: '50000' },
    'findings-per-asset': { type: 'string', default: '2' },
    'no-scans': { type: 'boolean', default: false },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(
    'Usage: generate:estate --out DIR [--seed N] [--assets N] [--findings-per-asset N] [--no-scans]\n',
  );
  process.exit(0);
}
if (!values.out) fail('--out DIR is required');
const seed = Number(values.seed);
const assets = Number(values.assets);
const perAsset = Number(values['findings-per-asset']);
if (!Number.isInteger(seed)) fail('--seed must be an integer');
if (!Number.isInteger(assets) || assets < MIN_ASSETS) fail(`--assets must be an integer >= ${MIN_ASSETS}`);
if (!(perAsset >= 0 && perAsset <= 20)) fail('--findings-per-asset must be between 0 and 20');

const out = resolve(values.out);
const existing = await readdir(out).catch(() => [] as string[]);
if (existing.length > 0) {
  if (!existing.includes(SUMMARY_FILE))
    fail(`${out} is not empty and holds no earlier estate; choose another`);
  for (const name of [INVENTORY_DIR, SCANS_DIR, SUMMARY_FILE])
    await rm(join(out, name), { recursive: true, force: true });
}

const t0 = performance.now();
const estate = generateEstate({ seed, assets, findingsPerAsset: perAsset, scans: !values['no-scans'] });
const t1 = performance.now();
const written = await writeEstate(out, estate);
const t2 = performance.now();
const s = estate.summary;
const lines = [
  `estate seed ${seed}: ${s.assets} assets, ${s.edges} edges, ${s.findings} findings in ${s.accounts} accounts`,
  `  clouds      ${Object.entries(s.clouds)
    .map(([c, v]) => `${c} ${v.assets} assets / ${v.accounts} accounts`)
    .join(', ')}`,
  `  exposed     ${s.internet_exposed} (${(s.exposed_share * 100).toFixed(1)} %), cross-account edges ${s.cross_account_edges}, cross-account trust ${s.cross_account_trust}`,
  `  findings    ${Object.entries(s.findings_by_scanner)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
  `  hub         ${s.hostile.hub.name} with ${s.hostile.hub.edges} LOGS_TO edges`,
  `  generated in ${(t1 - t0).toFixed(0)} ms, written in ${(t2 - t1).toFixed(0)} ms: ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB under ${out}`,
  '',
  `  load it:  load_dataset(path="${written.inventoryDir}")`,
  `  serve it: pnpm cloudg-mcp serve --transport http --dataset estate=${written.inventoryDir}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
