import type { JsonValue, ToolContext } from '@cloudg/core';
import type { Dataset } from '../../dataset/dataset.js';
import { relationshipGraph } from '../../graph/index.js';
import { findingsReportFile, inventoryMapFile, organizationFile } from '../../model/files.js';
import { computeInventorySummary } from '../../model/inventory-summary.js';
import { renderGraph } from '../../tools/graph/graph-formats.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { ExportSource } from '../caller-dataset.js';
import { assetMapFile, complianceMapFile, matchFindings } from './asset-map.js';
import { dependenciesFile } from './dependencies.js';

/** One file of a report: its `files` key, its name and its text. */
export type ReportFile = readonly [key: string, name: string, text: string];

/** JSON files as the reference writes them: two-space indent. */
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * GraphML as the graph engine writes it, with the policy's fence markers left readable: the
 * reference's `tags` attribute is JSON with every non-ASCII character escaped (Python's
 * `json.dumps`), which would turn `⟦untrusted⟧` into `\u27e6untrusted\u27e7` and hide from a
 * reader of the file that the text between them is untrusted. The two characters written as
 * themselves decode to the same JSON value.
 */
function graphml(graph: ReturnType<typeof relationshipGraph>): string {
  return (renderGraph(graph, 'graphml') as string)
    .replace(/\\u27e6/g, '\u27e6')
    .replace(/\\u27e7/g, '\u27e7');
}

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
  real: Dataset,
  source: ExportSource,
): Promise<ReportFile[]> {
  const d = source.dataset;
  const graph = relationshipGraph(d, ctx.signal);
  const map = inventoryMapFile({
    assets: d.assets,
    edges: d.edges,
    providers: d.providers,
    regions: d.regions,
    organization: d.organization,
    unresolved_references: d.unresolved_references,
  });
  if (source.transformed) {
    // Counts keyed by account, service, region...: computed from the real data and shown to the
    // caller as dataset_summary would be. Counted over pseudonyms instead, a key derived from a
    // pseudonymised value (the service of an ARN) could equal a real name that the pipeline
    // would have replaced.
    map.summary = await ctx.forCaller(computeInventorySummary(real) as unknown as JsonValue);
  }
  const files: ReportFile[] = [
    ['map', 'inventory-map.json', json(map)],
    ['graphml', 'inventory-map.graphml', graphml(graph)],
    ['graph', 'inventory-graph.json', json(renderGraph(graph, 'd3'))],
    ['dependencies', 'inventory-dependencies.json', json(await dependenciesFile(ctx, real.name, d))],
  ];
  if (d.organization)
    files.push(['organization', 'inventory-organization.json', json(organizationFile(d.organization))]);
  return files;
}

/** `<dataset>.graphml`: the relationship graph only. */
export function graphmlFiles(ctx: ToolContext<Workspace>, source: ExportSource): ReportFile[] {
  const graph = relationshipGraph(source.dataset, ctx.signal);
  return [['graphml', `${fileStem(source.name)}.graphml`, graphml(graph)]];
}

/** `asset-map.json` and `compliance-map.json`. */
export function assetMapFiles(source: ExportSource): ReportFile[] {
  const matched = matchFindings(source.dataset);
  return [
    ['asset_map', 'asset-map.json', json(assetMapFile(source.dataset, matched))],
    ['compliance_map', 'compliance-map.json', json(complianceMapFile(source.dataset, matched))],
  ];
}
