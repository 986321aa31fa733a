/**
 * Benchmark of the export tools on the realistic generated estate (bench/estate): `export_report`
 * in html (the target: <= 5 s at 50,000 assets) and its other formats, and `export_terraform`,
 * called through a real layer; then the interactive report of a 5,000-asset estate opened in
 * headless Chromium (Debian's chromium via playwright-core) and a node clicked, timed from
 * navigation to the node's detail on screen (the target: <= 3 s). The allow-all policy gives the
 * tools' own cost; `--standard` adds runs under the standard profile, where every record passes
 * the caller's output pipeline before it is written. Prints medians with min and max; asserts
 * nothing.
 *
 *   pnpm --filter @cloudg/catalog bench:export [-- --assets 50000 --runs 5 --browser-assets 5000 --standard]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createLogger, type Layer } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { chromium } from 'playwright-core';
import { createCatalogLayer, Dataset, Workspace } from '../src/index.js';
import { generateEstate } from './estate/index.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    assets: { type: 'string', default: '50000' },
    'browser-assets': { type: 'string', default: '5000' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '5' },
    standard: { type: 'boolean', default: false },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
const RUNS = Number(values.runs);

interface Timing {
  median: number;
  min: number;
  max: number;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? Number.NaN;
const summarise = (xs: number[]): Timing => ({
  median: median(xs),
  min: Math.min(...xs),
  max: Math.max(...xs),
});
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
function line(label: string, t: Timing, targetMs?: number): void {
  const target =
    targetMs === undefined ? '' : `  target <= ${targetMs} ms: ${t.median <= targetMs ? 'met' : 'NOT met'}`;
  console.log(
    `${label.padEnd(46)} median ${fmt(t.median).padStart(7)} ms  (min ${fmt(t.min)}, max ${fmt(t.max)})${target}`,
  );
}

async function callOk(
  layer: Layer<Workspace>,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await layer.callTool(name, args);
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content[0])}`);
  return result.structured as Record<string, unknown>;
}

async function estateLayer(assets: number, out: string, policy?: Policy): Promise<Layer<Workspace>> {
  const estate = generateEstate({ seed: Number(values.seed), assets, scans: false });
  const dataset = new Dataset({
    name: 'estate',
    kind: 'inventory',
    source: 'inline',
    assets: estate.assets,
    edges: estate.edges,
    findings: estate.findings,
    compliance: estate.compliance,
  });
  const ws = new Workspace({ allowedRoots: [out], outputDir: out, cwd: out });
  ws.add(dataset);
  const options: Parameters<typeof createCatalogLayer>[0] = {
    workspace: ws,
    logger: createLogger({ level: 'silent' }),
  };
  if (policy) options.policy = policy;
  return createCatalogLayer(options);
}

async function timeCalls(
  layer: Layer<Workspace>,
  name: string,
  args: Record<string, unknown>,
  runs: number,
): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await callOk(layer, name, args);
    samples.push(performance.now() - t);
  }
  return summarise(samples);
}

async function main(): Promise<void> {
  const out = await mkdtemp(join(tmpdir(), 'cloudg-bench-export-'));
  try {
    const assets = Number(values.assets);
    console.log(
      `generating the estate: ${assets} assets, seed ${values.seed}; load average ${loadavg()[0]?.toFixed(1)}`,
    );
    const layer = await estateLayer(assets, out);
    const first = performance.now();
    const html = await callOk(layer, 'export_report', { format: 'html', subdir: 'html' });
    const firstMs = performance.now() - first;
    const size = (await stat((html.files as { html: string }).html)).size;
    console.log(
      `\nexport_report html: report.html ${(size / 1e6).toFixed(1)} MB; first call (graph views built) ${fmt(firstMs)} ms`,
    );
    console.log('\nthrough the layer, allow-all policy (views cached)');
    line(
      'export_report html',
      await timeCalls(layer, 'export_report', { format: 'html', subdir: 'html' }, RUNS),
      5000,
    );
    line(
      'export_report json',
      await timeCalls(layer, 'export_report', { format: 'json', subdir: 'json' }, RUNS),
    );
    line(
      'export_report graphml',
      await timeCalls(layer, 'export_report', { format: 'graphml', subdir: 'g' }, RUNS),
    );
    line(
      'export_report asset_map',
      await timeCalls(layer, 'export_report', { format: 'asset_map', subdir: 'am' }, RUNS),
    );
    line(
      'export_terraform (every asset)',
      await timeCalls(layer, 'export_terraform', { subdir: 'tf' }, RUNS),
    );
    if (values.standard) {
      console.log('\nunder the standard profile (every record through the output pipeline)');
      const standard = await estateLayer(assets, out, Policy.fromProfile('standard'));
      line(
        'export_report html (standard)',
        await timeCalls(standard, 'export_report', { format: 'html', subdir: 'hs' }, RUNS),
      );
    }

    const browserAssets = Number(values['browser-assets']);
    console.log(`\nreport.html of a ${browserAssets}-asset estate in headless Chromium (${values.chromium})`);
    const small = await estateLayer(browserAssets, out);
    const written = await callOk(small, 'export_report', { format: 'html', subdir: 'small' });
    const url = pathToFileURL((written.files as { html: string }).html).href;
    const browser = await chromium.launch({
      executablePath: values.chromium,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const open: number[] = [];
      const click: number[] = [];
      const total: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
        await page.goto(url, { waitUntil: 'commit' });
        // The page's own clock: navigation start to the first frame with the graph drawn.
        await page.waitForFunction(() => performance.getEntriesByName('cloudg:painted').length > 0, null, {
          timeout: 60_000,
          polling: 50,
        });
        const opened = await page.evaluate(
          () => performance.getEntriesByName('cloudg:painted')[0]?.startTime ?? 0,
        );
        const point = await page.evaluate(() => {
          type Node = { renderedPosition(): { x: number; y: number }; data(key: string): string };
          type Cy = { $(selector: string): { first(): Node }; container(): HTMLElement };
          const cy = (window as unknown as { cloudgReport: { cy: Cy } }).cloudgReport.cy;
          const node = cy.$('node.flagged').first();
          const box = cy.container().getBoundingClientRect();
          const p = node.renderedPosition();
          return { x: box.left + p.x, y: box.top + p.y };
        });
        // Clicked as soon as the graph is on screen.
        const t2 = performance.now();
        await page.mouse.click(point.x, point.y);
        // At the opening zoom a 5,000-asset estate's nodes are a few pixels apart: the click may land
        // on a neighbour, which is still a click answered.
        await page.waitForSelector('#node-detail[data-node]', { timeout: 30_000 });
        const t3 = performance.now();
        open.push(opened);
        click.push(t3 - t2);
        total.push(opened + (t3 - t2));
        await page.close();
      }
      line('open (navigation to drawn)', summarise(open));
      line('click (to the node detail)', summarise(click));
      line('open and click', summarise(total), 3000);
    } finally {
      await browser.close();
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

await main();
