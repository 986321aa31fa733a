import { type AssetBrief, assetBrief } from '../conventions/briefs.js';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { Finding } from '../model/finding.js';
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
  controls: Set<string>;
  findings: Finding[];
}

/**
 * Assets failing the matching frameworks: a finding is a gap when it is open, at or above the
 * severity floor, and tagged with a matching framework or listed by a failing result of one.
 * Worst gap severity first, then internet-exposed, then most gap findings, then name.
 */
export function complianceGaps(dataset: Dataset, framework: string, floor: Severity | null): GapRow[] {
  const matches = frameworkMatcher(framework);
  // Failing results of matching frameworks, by the findings they list.
  const failingByFinding = new Map<string, { framework: string; control_id: string }[]>();
  for (const c of dataset.compliance) {
    if (c.status !== 'FAIL' || !matches(c.framework)) continue;
    for (const id of c.finding_ids) {
      const list = failingByFinding.get(id) ?? [];
      list.push({ framework: c.framework, control_id: c.control_id });
      failingByFinding.set(id, list);
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
      gap.controls.add(`${c.framework}:${c.control_id}`);
    }
    gap.findings.push(f);
  }
  const rows = [...gaps.values()].map((g) => gapRow(dataset, g));
  const sev = (r: GapRow) => (r.gap_max_severity === null ? -1 : severityRank(r.gap_max_severity));
  return rows.sort(
    (a, b) =>
      sev(b) - sev(a) ||
      Number(b.internet_exposed) - Number(a.internet_exposed) ||
      b.gap_findings - a.gap_findings ||
      a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

function gapRow(dataset: Dataset, gap: Gap): GapRow {
  const fields: GapFields = {
    frameworks: [...gap.frameworks].sort(),
    failing_controls: [...gap.controls].slice(0, MAX_FAILING_CONTROLS),
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
