import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLayer } from './export-support.js';
import { call, callError } from './support.js';

let ctx: Awaited<ReturnType<typeof exportLayer>>;
beforeAll(async () => {
  ctx = await exportLayer();
});
afterAll(() => ctx.cleanup());

const readJsonFile = async (path: string) =>
  JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe('export_report: the documented examples on the sample estate', () => {
  it('json writes findings.json', async () => {
    const dir = join(ctx.out, 'reports/json');
    expect(await call(ctx.layer, 'export_report', { format: 'json', subdir: 'reports/json' })).toEqual({
      dataset: 'sample',
      format: 'json',
      output_dir: dir,
      files: { json: join(dir, 'findings.json') },
    });
    const report = await readJsonFile(join(dir, 'findings.json'));
    expect(Object.keys(report)).toEqual([
      'metadata',
      'summary',
      'assets',
      'edges',
      'findings',
      'compliance',
      'graph',
      'organization',
      'unresolved_references',
    ]);
    expect((report.assets as unknown[]).length).toBe(44);
  });

  it('inventory writes the map, its GraphML, the graph, the dependencies and the organization', async () => {
    const dir = join(ctx.out, 'reports/inventory');
    expect(
      await call(ctx.layer, 'export_report', { format: 'inventory', subdir: 'reports/inventory' }),
    ).toEqual({
      dataset: 'sample',
      format: 'inventory',
      output_dir: dir,
      files: {
        map: join(dir, 'inventory-map.json'),
        graphml: join(dir, 'inventory-map.graphml'),
        graph: join(dir, 'inventory-graph.json'),
        dependencies: join(dir, 'inventory-dependencies.json'),
        organization: join(dir, 'inventory-organization.json'),
      },
    });
    const map = await readJsonFile(join(dir, 'inventory-map.json'));
    expect((map.summary as { total_assets: number }).total_assets).toBe(44);
    const deps = await readJsonFile(join(dir, 'inventory-dependencies.json'));
    expect(Object.keys(deps)).toEqual([
      'shared_dependencies',
      'largest_blast_radius',
      'cross_account_edges',
      'security_coverage',
      'unresolved_references',
    ]);
    // The same answers the graph tools give.
    const shared = await call(ctx.layer, 'shared_dependencies', { top: 25 });
    expect(deps.shared_dependencies).toEqual(shared.items);
    const graph = await readJsonFile(join(dir, 'inventory-graph.json'));
    expect(Object.keys(graph)).toEqual(['nodes', 'links']);
    const graphml = await readFile(join(dir, 'inventory-map.graphml'), 'utf8');
    expect(graphml.startsWith('<graphml')).toBe(true);
  });

  it('html, graphml and asset_map write the documented files', async () => {
    for (const [format, files] of [
      ['html', { html: 'report.html' }],
      ['graphml', { graphml: 'sample.graphml' }],
      ['asset_map', { asset_map: 'asset-map.json', compliance_map: 'compliance-map.json' }],
    ] as const) {
      const dir = join(ctx.out, 'reports', format);
      expect(await call(ctx.layer, 'export_report', { format, subdir: `reports/${format}` })).toEqual({
        dataset: 'sample',
        format,
        output_dir: dir,
        files: Object.fromEntries(Object.entries(files).map(([k, name]) => [k, join(dir, name)])),
      });
    }
  });

  it('writes into the output directory itself by default, as findings.json', async () => {
    const result = await call(ctx.layer, 'export_report', {});
    expect(result).toMatchObject({
      format: 'json',
      output_dir: ctx.out,
      files: { json: join(ctx.out, 'findings.json') },
    });
  });

  it('refuses an unknown format and a subdir that escapes', async () => {
    expect((await callError(ctx.layer, 'export_report', { format: 'pdf' })).code).toBe(-32602);
    expect((await callError(ctx.layer, 'export_report', { subdir: '../x' })).code).toBe(-31001);
  });
});

describe('export_report progress', () => {
  it('reports its three steps, in order', async () => {
    const seen: [number, number | undefined, string | undefined][] = [];
    const result = await ctx.layer.callTool(
      'export_report',
      { format: 'graphml', subdir: 'progress' },
      { onProgress: (progress, total, message) => void seen.push([progress, total, message]) },
    );
    expect(result.isError).toBe(false);
    expect(seen).toEqual([
      [0, 3, 'preparing 44 assets'],
      [1, 3, 'rendering graphml'],
      [2, 3, 'writing files'],
      [3, 3, 'done'],
    ]);
  });
});

describe('export_report json round trip', () => {
  it('loads back with load_dataset and gives the same dataset_summary', async () => {
    await call(ctx.layer, 'export_report', { format: 'json', subdir: 'round' });
    const before = await call(ctx.layer, 'dataset_summary', { dataset: 'sample' });
    await call(ctx.layer, 'load_dataset', {
      path: join(ctx.out, 'round', 'findings.json'),
      name: 'again',
      activate: false,
    });
    const after = await call(ctx.layer, 'dataset_summary', { dataset: 'again' });
    const strip = (s: Record<string, unknown>) => {
      // Where and how it was loaded differ by design (kind: a report file, not an inventory map).
      const { dataset: _name, source: _source, loaded_at: _at, kind: _kind, ...rest } = s;
      return rest;
    };
    expect(strip(after)).toEqual(strip(before));
  });
});

describe('export_report asset_map', () => {
  it('joins findings to assets by id, ARN or name and counts frameworks', async () => {
    await call(ctx.layer, 'export_report', { format: 'asset_map', subdir: 'am' });
    const map = await readJsonFile(join(ctx.out, 'am', 'asset-map.json'));
    expect(map.total_assets).toBe(44);
    const rows = map.assets as { name: string; finding_count: number; finding_ids: string[] }[];
    expect(rows.map((r) => r.finding_count)).toEqual(
      [...rows.map((r) => r.finding_count)].sort((a, b) => b - a),
    );
    expect(map.assets_with_findings).toBe(rows.filter((r) => r.finding_count > 0).length);
    const compliance = await readJsonFile(join(ctx.out, 'am', 'compliance-map.json'));
    const frameworks = compliance.frameworks as Record<
      string,
      { affected_assets: string[]; affected_asset_count: number }
    >;
    expect(Object.keys(frameworks)).toEqual([...Object.keys(frameworks)].sort());
    expect(compliance.total_frameworks).toBe(Object.keys(frameworks).length);
    for (const fw of Object.values(frameworks))
      expect(fw.affected_asset_count).toBe(fw.affected_assets.length);
  });
});

describe('export_report html', () => {
  it('is one file with the data and the viewer inline and nothing to fetch', async () => {
    await call(ctx.layer, 'export_report', { format: 'html', subdir: 'page' });
    const html = await readFile(join(ctx.out, 'page', 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/cdn/i);
    const data = JSON.parse(
      /<script type="application\/json" id="cloudg-data">([^<]*)<\/script>/.exec(html)?.[1] ?? '{}',
    ) as {
      summary: { assets: number; attack_paths: number };
      graph: { nodes: unknown[] };
      paths: { nodes: number[] }[];
    };
    expect(data.summary.assets).toBe(44);
    expect(data.graph.nodes.length).toBeGreaterThanOrEqual(44);
    expect(data.paths.length).toBeGreaterThan(0);
  });
});
