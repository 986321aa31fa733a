import type { ToolContext } from '@cloudg/core';
import { relationshipGraph } from '../../graph/index.js';
import { findingsReportFile, inventoryMapFile, organizationFile } from '../../model/files.js';
import { renderGraph } from '../../tools/graph/graph-formats.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { ExportSource } from '../caller-dataset.js';
import { assetMapFile, complianceMapFile } from './asset-map.js';
import { dependenciesFile } from './dependencies.js';

/** One file of a report: its `files` key, its name and its text. */
export type ReportFile = readonly [key: string, name: string, text: string];

/** JSON files as the reference writes them: two-space indent. */
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A dataset name as a file name (dataset names are already safe; pseudonyms are too). */
function fileStem(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_') || 'dataset';
}

/**
 * `findings.json`: assets, edges, findings, compliance and the D3 graph, plus the organization
 * and unresolved references when the dataset has them (the reference's file has neither, so its
 * round trip loses them; load_dataset reads both back, so the dataset loaded from this file
 * has the same `dataset_summary` as the one exported).
 */
export function findingsJson(source: ExportSource): ReportFile[] {
  const d = source.dataset;
  const report = findingsReportFile({
    generatedAt: new Date().toISOString(),
    assets: d.assets,
    edges: d.edges,
    findings: d.findings,
    compliance: d.compliance,
    coverage: d.coverage,
    providers: d.providers,
  });
  if (d.organization) report.organization = d.organization;
  if (d.unresolved_references.length) report.unresolved_references = d.unresolved_references;
  return [['json', 'findings.json', json(report)]];
}

/** The inventory file set of `cloudg map` (INVENTORY_REFERENCE.md 8.3). */
export async function inventoryFiles(
  ctx: ToolContext<Workspace>,
  realName: string,
  source: ExportSource,
): Promise<ReportFile[]> {
  const d = source.dataset;
  const graph = relationshipGraph(d, ctx.signal);
  const files: ReportFile[] = [
    [
      'map',
      'inventory-map.json',
      json(
        inventoryMapFile({
          assets: d.assets,
          edges: d.edges,
          providers: d.providers,
          regions: d.regions,
          organization: d.organization,
          unresolved_references: d.unresolved_references,
        }),
      ),
    ],
    ['graphml', 'inventory-map.graphml', renderGraph(graph, 'graphml') as string],
    ['graph', 'inventory-graph.json', json(renderGraph(graph, 'd3'))],
    ['dependencies', 'inventory-dependencies.json', json(await dependenciesFile(ctx, realName, d))],
  ];
  if (d.organization)
    files.push(['organization', 'inventory-organization.json', json(organizationFile(d.organization))]);
  return files;
}

/** `<dataset>.graphml`: the relationship graph only. */
export function graphmlFiles(ctx: ToolContext<Workspace>, source: ExportSource): ReportFile[] {
  const graph = relationshipGraph(source.dataset, ctx.signal);
  return [['graphml', `${fileStem(source.name)}.graphml`, renderGraph(graph, 'graphml') as string]];
}

/** `asset-map.json` and `compliance-map.json`. */
export function assetMapFiles(source: ExportSource): ReportFile[] {
  return [
    ['asset_map', 'asset-map.json', json(assetMapFile(source.dataset))],
    ['compliance_map', 'compliance-map.json', json(complianceMapFile(source.dataset))],
  ];
}
