import { InvalidArgumentsError } from '@cloudg/core';
import { type AssetBrief, assetBrief, type FindingBrief, findingBrief } from '../conventions/briefs.js';
import { sortFindings } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { ComplianceResult } from '../model/finding.js';
import { compareControlIds, frameworkMatcher } from './framework-match.js';
import { openFindingsOf } from './posture.js';
import type { RulesetCatalog } from './ruleset-catalog.js';

/** A control as a ruleset defines it (`list_controls` source `ruleset`, `control_status.definition`). */
export interface ControlDefinition {
  framework: string;
  control_id: string;
  title: string | null;
  severity: string | null;
  /** How many scanner checks the ruleset maps to it. */
  checks: number;
}

export interface ControlStatus {
  dataset: string;
  framework: string;
  control_id: string;
  definition: ControlDefinition | null;
  status: string;
  results: { framework: string; control_id: string; control_title: string; status: string }[];
  open_findings: number;
  findings: FindingBrief[];
  affected_assets: AssetBrief[];
  truncated: boolean;
}

export const SUPPRESSED_PASS = 'PASS (all findings suppressed)';

/**
 * Whether a dataset result is the control asked for: the same id, or an id ending with it after a
 * separator (`CIS-AWS/5.2` for `5.2`). The reference accepts any suffix, which lets `5.2` pick
 * `2.5.2` and `15.2` as well; requiring a separator (not a dot, which is part of the numbering)
 * keeps the convenience without the wrong controls.
 */
export function matchesControlId(resultId: string, wanted: string): boolean {
  if (resultId === wanted) return true;
  if (!resultId.endsWith(wanted) || resultId.length === wanted.length) return false;
  return /[/\-:_\s]/.test(resultId[resultId.length - wanted.length - 1] ?? '');
}

function statusOf(dataset: Dataset, results: readonly ComplianceResult[], open: number): string {
  if (results.length === 0) return 'NOT_EVALUATED';
  const failing = results.filter((c) => c.status === 'FAIL');
  if (failing.length) {
    if (open > 0) return 'FAIL';
    // A failing result that lists no finding at all still fails; only one whose every finding
    // was suppressed counts as passing (the reference would call an empty one passing too).
    const listed = failing.some((c) => c.finding_ids.some((id) => dataset.indexes.findingById(id)));
    return listed ? SUPPRESSED_PASS : 'FAIL';
  }
  return results[0]?.status ?? 'NOT_EVALUATED';
}

export function definitionOf(
  catalog: RulesetCatalog,
  framework: string,
  controlId: string,
): ControlDefinition | null {
  const matches = frameworkMatcher(framework);
  for (const name of catalog.frameworkNames.filter(matches)) {
    const c = catalog.control(name, controlId);
    if (c) {
      return {
        framework: name,
        control_id: c.control_id,
        title: c.title,
        severity: c.severity,
        checks: c.checks.length,
      };
    }
  }
  return null;
}

/** `control_status`: one control's definition, status, failing findings and affected assets. */
export function controlStatus(
  dataset: Dataset,
  catalog: RulesetCatalog,
  framework: string,
  controlId: string,
  limit: number,
): ControlStatus {
  const matches = frameworkMatcher(framework);
  const wanted = controlId.trim();
  const inFramework = dataset.compliance.filter((c) => matches(c.framework));
  const results = inFramework.filter((c) => matchesControlId(c.control_id, wanted));
  const definition = definitionOf(catalog, framework, wanted);
  if (results.length === 0 && definition === null) {
    const known = [...new Set(inFramework.map((c) => c.control_id))].sort(compareControlIds);
    const listed = known.length
      ? ` Controls in this dataset: ${known.join(', ')}`
      : ' No control of a matching framework was evaluated in this dataset; list_controls(source="ruleset") lists the controls a framework defines.';
    throw new InvalidArgumentsError(`No such control for that framework.${listed}`, {
      data: { value: controlId, framework, known },
    });
  }
  const open = sortFindings(openFindingsOf(dataset, results), 'risk');
  const assets: CloudAsset[] = [];
  const seen = new Set<string>();
  for (const f of open) {
    const asset = dataset.indexes.assetOfFinding(f);
    if (asset && !seen.has(asset.id)) {
      seen.add(asset.id);
      assets.push(asset);
    }
  }
  return {
    dataset: dataset.name,
    framework,
    control_id: controlId,
    definition,
    status: statusOf(dataset, results, open.length),
    results: results.map((c) => ({
      framework: c.framework,
      control_id: c.control_id,
      control_title: c.control_title,
      status: c.status,
    })),
    open_findings: open.length,
    findings: open.slice(0, limit).map((f) => findingBrief(dataset, f)),
    affected_assets: assets.slice(0, limit).map((a) => assetBrief(dataset, a)),
    truncated: open.length > limit || assets.length > limit,
  };
}
