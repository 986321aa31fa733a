import type { ToolContext } from '@cloudg/core';
import type { Dataset } from '../../dataset/dataset.js';
import { datasetSummary } from '../../dataset/summary.js';
import { datasetSummaryUri, WORKSPACE_URI, type Workspace } from '../../workspace/workspace.js';

/** What a model usually does next with a fresh live dataset. */
export const COLLECTION_NEXT_STEPS = ['dataset_summary', 'find_assets', 'top_risks', 'attack_paths'];

/** Failed services reported in `collection_failures`. */
const MAX_FAILURES = 20;

/** The `summary` block of a collecting tool's result (MCP_TOOLS.md "What the result looks like"). */
export function liveSummary(dataset: Dataset) {
  const s = datasetSummary(dataset);
  return {
    total_assets: s.total_assets,
    total_edges: s.total_edges,
    total_findings: s.total_findings,
    open_findings: s.open_findings,
    severity_breakdown: s.severity_breakdown,
    accounts: s.accounts,
    regions: s.regions,
    internet_exposed: s.internet_exposed,
    cross_account_edges: s.cross_account_edges,
    assets_by_type: s.assets_by_type,
    providers: s.providers,
  };
}

/** The first failed or skipped services of the coverage records, with their error. */
export function collectionFailures(dataset: Dataset): { service: string; error: string }[] {
  const out: { service: string; error: string }[] = [];
  for (const record of dataset.coverage) {
    for (const svc of record.services) {
      if (svc.status !== 'FAILED' && svc.status !== 'SKIPPED') continue;
      out.push({ service: svc.service, error: svc.error ?? svc.status.toLowerCase() });
      if (out.length >= MAX_FAILURES) return out;
    }
  }
  return out;
}

/** The two links every live result carries: the dataset's summary first, then the workspace. */
export function linkDataset(ctx: ToolContext<Workspace>, name: string): void {
  ctx.link(datasetSummaryUri(name), `${name} summary`, {
    title: 'Dataset summary',
    mimeType: 'application/json',
    priority: 1.0,
  });
  ctx.link(WORKSPACE_URI, 'workspace', { mimeType: 'application/json' });
}

/** Seconds with one decimal, as the reference reports durations. */
export function durationSince(startMs: number): number {
  return Math.round((Date.now() - startMs) / 100) / 10;
}
