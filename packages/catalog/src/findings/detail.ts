import { type AssetBrief, assetBrief, type FindingBrief, findingBrief } from '../conventions/briefs.js';
import type { Dataset } from '../dataset/dataset.js';
import type { ComplianceResult, Finding } from '../model/finding.js';

/** A compliance result as `get_finding` lists it. */
export interface FindingControl {
  framework: string;
  control_id: string;
  control_title: string;
  status: string;
}

/** The brief plus the finding's text: what `cloudg://findings/{finding_id}` serves. */
export interface FindingView extends FindingBrief {
  description: string;
  evidence: string | null;
  remediation: string | null;
}

/** `get_finding`: the view plus the scanner id, the controls, the suppression and the asset. */
export interface FindingDetail extends FindingView {
  source_finding_id: string | null;
  controls: FindingControl[];
  suppression_reason?: string | null;
  suppressed_by?: string | null;
  suppressed_at?: string | null;
  asset?: AssetBrief;
}

export function findingView(dataset: Dataset, finding: Finding): FindingView {
  return {
    ...findingBrief(dataset, finding),
    description: finding.description,
    evidence: finding.evidence,
    remediation: finding.remediation,
  };
}

/** Compliance results per finding id they list, in dataset order (built once per version). */
function controlsByFinding(dataset: Dataset): ReadonlyMap<string, ComplianceResult[]> {
  return dataset.derived('findings:controls', (d) => {
    const map = new Map<string, ComplianceResult[]>();
    for (const c of d.compliance) {
      for (const id of new Set(c.finding_ids)) {
        const list = map.get(id);
        if (list) list.push(c);
        else map.set(id, [c]);
      }
    }
    return map;
  });
}

/** Text of an optional extra field the suppression tools record on a finding. */
function recorded(finding: Finding, key: string): string | null {
  const value = finding[key];
  return typeof value === 'string' ? value : null;
}

export function findingDetail(dataset: Dataset, finding: Finding): FindingDetail {
  const detail: FindingDetail = {
    ...findingView(dataset, finding),
    source_finding_id: finding.source_finding_id,
    controls: (controlsByFinding(dataset).get(finding.id) ?? []).map((c) => ({
      framework: c.framework,
      control_id: c.control_id,
      control_title: c.control_title,
      status: c.status,
    })),
  };
  if (finding.is_suppressed) {
    detail.suppression_reason = finding.suppression_reason;
    // Who and when are known for suppressions made through suppress_findings, not for a file's.
    detail.suppressed_by = recorded(finding, 'suppressed_by');
    detail.suppressed_at = recorded(finding, 'suppressed_at');
  }
  const asset = dataset.indexes.assetOfFinding(finding);
  if (asset) detail.asset = assetBrief(dataset, asset);
  return detail;
}
