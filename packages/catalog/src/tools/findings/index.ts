import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerFindingsForAsset } from './findings-for-asset.js';
import { registerFindingsSummary } from './findings-summary.js';
import { registerGetFinding } from './get-finding.js';
import { registerListFindings } from './list-findings.js';
import { registerSuppressionTools } from './suppress-findings.js';

/**
 * Register the findings tools in catalog order: list_findings, get_finding, findings_summary,
 * findings_for_asset, suppress_findings, unsuppress_findings. (top_risks and
 * reachability_findings need the graph engine; ingest_reports and normalise_findings register
 * here once they land.)
 */
export function registerFindingsTools(registry: Registry<Workspace>): void {
  registerListFindings(registry);
  registerGetFinding(registry);
  registerFindingsSummary(registry);
  registerFindingsForAsset(registry);
  registerSuppressionTools(registry);
}
