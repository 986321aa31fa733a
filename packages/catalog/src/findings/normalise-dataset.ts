/**
 * The work of `normalise_findings`, apart from the tool so that replicas sharing the workspace
 * repeat it (see workspace/operations.ts): deduplicate, rescore and map one dataset's findings.
 */
import { normaliseFindings, providerFromResource } from '../compliance/normaliser.js';
import { workspaceRulesets } from '../compliance/workspace-rulesets.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import type { Workspace } from '../workspace/workspace.js';
import { prepareFindings } from './prepare.js';

export async function normaliseDataset(ws: Workspace, dataset: Dataset, signal: AbortSignal) {
  const catalog = await workspaceRulesets(ws);
  const providerOf = (f: Finding) =>
    dataset.indexes.assetOfFinding(f)?.provider.toLowerCase() ?? providerFromResource(f);
  const before = { findings: dataset.findings.length, compliance: dataset.compliance.length };
  const outcome = normaliseFindings({
    findings: dataset.findings,
    compliance: dataset.compliance,
    catalog,
    providerOf,
    signal,
  });
  dataset.findings = outcome.findings;
  dataset.compliance = outcome.compliance;
  ws.mutated(dataset);
  // Build the findings columns now, as load_dataset does (findings/prepare.ts).
  await prepareFindings(dataset, signal);
  return {
    dataset: dataset.name,
    findings_before: before.findings,
    findings_after: dataset.findings.length,
    compliance_results_before: before.compliance,
    compliance_results_after: dataset.compliance.length,
    frameworks: [...new Set(dataset.compliance.map((c) => c.framework))].sort(),
    merged: outcome.merged,
    rescored: outcome.rescored,
  };
}
