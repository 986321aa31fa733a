import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerFindingsForAsset } from './findings-for-asset.js';
import { registerFindingsSummary } from './findings-summary.js';
import { registerGetFinding } from './get-finding.js';
import { registerIngestReports } from './ingest-reports.js';
import { registerListFindings } from './list-findings.js';
import { registerNormaliseFindings } from './normalise-findings.js';
import { registerReachabilityFindings } from './reachability-findings.js';
import { registerSuppressionTools } from './suppress-findings.js';
import { registerTopRisks } from './top-risks.js';

/**
 * Register the findings tools in catalog order: list_findings, get_finding, findings_summary,
 * findings_for_asset, top_risks, suppress_findings, unsuppress_findings, ingest_reports,
 * normalise_findings, reachability_findings.
 */
export function registerFindingsTools(registry: Registry<Workspace>): void {
  registerListFindings(registry);
  registerGetFinding(registry);
  registerFindingsSummary(registry);
  registerFindingsForAsset(registry);
  registerTopRisks(registry);
  registerSuppressionTools(registry);
  registerIngestReports(registry);
  registerNormaliseFindings(registry);
  registerReachabilityFindings(registry);
}
