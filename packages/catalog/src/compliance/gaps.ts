import { type AssetBrief, assetBrief } from '../conventions/briefs.js';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { ComplianceResult, Finding } from '../model/finding.js';
import { maxSeverity, type Severity, severityRank } from '../model/severity.js';
import { frameworkMatcher } from './framework-match.js';

/** Most `framework:control_id` entries a gap row lists. */
const MAX_FAILING_CONTROLS = 20;

interface GapFields {
  frameworks: string[];
  failing_controls: string[];
  gap_findings: number;
  gap_max_severity: Severity | null;
}

/** A `compliance_gaps` row: an asset brief, or an unmapped resource, with its gaps. */
export type GapRow =
  | (AssetBrief & GapFields)
  | ({ id: string; name: string; internet_exposed: false; unmapped: true } & GapFields);

interface Gap {
  asset: CloudAsset | null;
  resource: string;
  frameworks: Set<string>;
  /** The first failing results, up to the number a row shows (a finding can fail dozens). */
  controls: Set<ComplianceResult>;
  findings: Finding[];
}

/** A copy a caller may hand on (the rows themselves are cached per dataset version). */
export function copyGapRow(row: GapRow): GapRow {
  return { ...row, frameworks: [...row.frameworks], failing_controls: [...row.failing_controls] };
}

/**
 * Assets failing the matching frameworks: a finding is a gap when it is open, at or above the
 * severity floor, and tagged with a matching framework or listed by a failing result of one.
 * Worst gap severity first, then internet-exposed, then most gap findings, then name.
 */
export function complianceGaps(
  dataset: Dataset,
  framework: string,
  floor: Severity | null,
): readonly GapRow[] {
  // Paging through the gaps asks the same question once per page: answer it once per version.
  return dataset.derived(`compliance-gaps\u0000${framework.trim().toLowerCase()}\u0000${floor ?? ''}`, () =>
    computeGaps(dataset, framework, floor),
  );
}

function computeGaps(dataset: Dataset, framework: string, floor: Severity | null): GapRow[] {
  const matches = frameworkMatcher(framework);
  // Failing results of matching frameworks, by the findings they list.
  const failingByFinding = new Map<string, ComplianceResult[]>();
  for (const c of dataset.compliance) {
    if (c.status !== 'FAIL' || !matches(c.framework)) continue;
    for (const id of c.finding_ids) {
      const list = failingByFinding.get(id);
      if (list) list.push(c);
      else failingByFinding.set(id, [c]);
    }
  }
  const gaps = new Map<string, Gap>();
  for (const f of dataset.findings) {
    if (f.is_suppressed) continue;
    if (floor !== null && severityRank(f.severity) < severityRank(floor)) continue;
    const tags = f.compliance_frameworks.filter(matches);
    const controls = failingByFinding.get(f.id) ?? [];
    if (tags.length === 0 && controls.length === 0) continue;
    const asset = dataset.indexes.assetOfFinding(f);
    const resource = f.resource_arn ?? f.resource_id ?? f.id;
    const key = asset ? `a\u0000${asset.id}` : `u\u0000${resource}`;
    let gap = gaps.get(key);
    if (!gap) {
      gap = { asset, resource, frameworks: new Set(), controls: new Set(), findings: [] };
      gaps.set(key, gap);
    }
    for (const t of tags) gap.frameworks.add(t);
    for (const c of controls) {
      gap.frameworks.add(c.framework);
      if (gap.controls.size < MAX_FAILING_CONTROLS) gap.controls.add(c);
    }
    gap.findings.push(f);
  }
  // Sort keys computed once per row: tens of thousands of rows are sorted on a large estate.
  const keyed = [...gaps.values()].map((g) => {
    const row = gapRow(dataset, g);
    const sev = row.gap_max_severity === null ? -1 : severityRank(row.gap_max_severity);
    return { row, sev, name: row.name.toLowerCase() };
  });
  keyed.sort(
    (a, b) =>
      b.sev - a.sev ||
      Number(b.row.internet_exposed) - Number(a.row.internet_exposed) ||
      b.row.gap_findings - a.row.gap_findings ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0),
  );
  return keyed.map((k) => k.row);
}

function gapRow(dataset: Dataset, gap: Gap): GapRow {
  const fields: GapFields = {
    frameworks: [...gap.frameworks].sort(),
    failing_controls: [...gap.controls].map((c) => `${c.framework}:${c.control_id}`),
    gap_findings: gap.findings.length,
    gap_max_severity: maxSeverity(gap.findings.map((f) => f.severity)),
  };
  if (gap.asset) return { ...assetBrief(dataset, gap.asset), ...fields };
  return {
    id: `unmapped:${gap.resource}`,
    name: gap.resource,
    internet_exposed: false,
    unmapped: true,
    ...fields,
  };
}
