import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { exportSource } from '../../export/caller-dataset.js';
import { htmlFiles } from '../../export/html/report-html.js';
import {
  assetMapFiles,
  findingsJson,
  graphmlFiles,
  inventoryFiles,
  type ReportFile,
} from '../../export/report/files.js';
import { exportDirectory, writeExportFiles } from '../../export/write-files.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { subdirArg } from './args.js';

export const REPORT_FORMATS = ['json', 'html', 'inventory', 'graphml', 'asset_map'] as const;

/** `export_report`: the dataset as a cloudg report file set. */
export function registerExportReport(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'export_report',
    title: 'Export report',
    description:
      'Writes the dataset as a cloudg report file set under <output_dir>/<subdir> and returns the paths. json: findings.json (assets, edges, findings, compliance, D3 graph), loadable again with load_dataset; html: the interactive report.html (summary, estate graph with attack paths, filterable findings, compliance posture; self-contained, opens offline); inventory: inventory-map.json + .graphml + graph + dependencies (+ organization); graphml: <dataset>.graphml, the graph only; asset_map: asset-map.json + compliance-map.json (inventory x findings). Files with the same name are overwritten.',
    category: 'export',
    sensitivity: 'confidential',
    capabilities: ['read_state', 'write_fs'],
    readOnly: false,
    destructive: false,
    idempotent: true,
    openWorld: false,
    input: {
      format: z
        .enum(REPORT_FORMATS)
        .default('json')
        .describe(
          'json: findings.json (assets, findings, compliance, D3 graph); html: interactive report.html; inventory: inventory-map.json + .graphml + graph + dependencies; graphml: the graph only; asset_map: asset-map.json + compliance-map.json (inventory x findings).',
        ),
      subdir: subdirArg(''),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const dir = exportDirectory(ctx.app, args.subdir);
      // Three steps a large estate makes long: the data as the caller may see it, the files, the writes.
      await ctx.reportProgress(0, 3, `preparing ${dataset.assets.length} assets`);
      const source = await exportSource(ctx, dataset);
      await ctx.reportProgress(1, 3, `rendering ${args.format}`);
      let files: ReportFile[];
      switch (args.format) {
        case 'json':
          files = findingsJson(source);
          break;
        case 'html':
          files = await htmlFiles(source, ctx.signal);
          break;
        case 'inventory':
          files = await inventoryFiles(ctx, dataset, source);
          break;
        case 'graphml':
          files = graphmlFiles(ctx, source);
          break;
        case 'asset_map':
          files = assetMapFiles(source);
          break;
      }
      await ctx.reportProgress(2, 3, 'writing files');
      const paths = await writeExportFiles(dir, files, ctx.signal);
      await ctx.reportProgress(3, 3, 'done');
      return { dataset: dataset.name, format: args.format, output_dir: dir, files: paths };
    },
  });
}
