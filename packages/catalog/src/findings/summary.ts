import type { Dataset } from '../dataset/dataset.js';
import { severityBreakdown } from '../dataset/summary.js';
import type { Finding } from '../model/finding.js';
import { SEVERITIES, type Severity } from '../model/severity.js';

/** The dimensions `findings_summary` groups by. */
export const FINDING_GROUPS = [
  'severity',
  'source_tool',
  'framework',
  'asset_type',
  'account',
  'asset',
] as const;
export type FindingGroup = (typeof FINDING_GROUPS)[number];

/** Group of findings matched to no asset, under the asset-based groupings. */
export const UNMAPPED_GROUP = 'unmapped';
/** Group of findings tagged with no framework. */
export const NO_FRAMEWORK_GROUP = '(none)';
/** Account group of an asset that has no account. */
const NO_ACCOUNT_GROUP = 'unknown';

/** One group: how many findings it holds, then how many of each severity (present ones only). */
export type SeverityCounts = { total: number } & Partial<Record<Severity, number>>;

export interface FindingsSummary {
  dataset: string;
  group_by: FindingGroup;
  /** Findings counted (open, or all with include_suppressed), not the sum of the groups. */
  total: number;
  /** Suppressed findings in the dataset, whatever was counted. */
  suppressed: number;
  groups: Record<string, SeverityCounts>;
  truncated: boolean;
}

/** The keys a finding counts under (a finding counts once in each of its frameworks). */
function groupKeys(dataset: Dataset, group: FindingGroup): (f: Finding) => readonly string[] {
  const asset = (f: Finding) => dataset.indexes.assetOfFinding(f);
  switch (group) {
    case 'severity':
      return (f) => [f.severity];
    case 'source_tool':
      return (f) => [f.source_tool];
    case 'framework':
      return (f) =>
        f.compliance_frameworks.length ? [...new Set(f.compliance_frameworks)] : [NO_FRAMEWORK_GROUP];
    case 'asset_type':
      return (f) => [asset(f)?.asset_type ?? UNMAPPED_GROUP];
    case 'account':
      return (f) => {
        const a = asset(f);
        return [a ? (a.account_id ?? NO_ACCOUNT_GROUP) : UNMAPPED_GROUP];
      };
    case 'asset':
      return (f) => [asset(f)?.id ?? UNMAPPED_GROUP];
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Count findings by one dimension. Groups come largest first (ties by key), except by severity,
 * which keeps severity order; at most `top` groups are returned.
 */
export function summariseFindings(
  dataset: Dataset,
  options: { groupBy: FindingGroup; includeSuppressed: boolean; top: number },
): FindingsSummary {
  const keysOf = groupKeys(dataset, options.groupBy);
  const members = new Map<string, Severity[]>();
  let total = 0;
  let suppressed = 0;
  for (const f of dataset.findings) {
    if (f.is_suppressed) suppressed += 1;
    if (f.is_suppressed && !options.includeSuppressed) continue;
    total += 1;
    for (const key of keysOf(f)) {
      const list = members.get(key);
      if (list) list.push(f.severity);
      else members.set(key, [f.severity]);
    }
  }
  const keys = [...members.keys()];
  if (options.groupBy === 'severity') {
    keys.sort((a, b) => SEVERITIES.indexOf(a as Severity) - SEVERITIES.indexOf(b as Severity));
  } else {
    keys.sort((a, b) => (members.get(b)?.length ?? 0) - (members.get(a)?.length ?? 0) || compareKeys(a, b));
  }
  // Inside a group the severities come worst first. The reference lists them in the order the
  // findings happened to come (scoutsuite: HIGH, CRITICAL, MEDIUM); severity order reads the same
  // whatever the file order.
  const groups: Record<string, SeverityCounts> = {};
  for (const key of keys.slice(0, options.top)) {
    const severities = members.get(key) ?? [];
    groups[key] = { total: severities.length, ...severityBreakdown(severities) };
  }
  return {
    dataset: dataset.name,
    group_by: options.groupBy,
    total,
    suppressed,
    groups,
    truncated: keys.length > options.top,
  };
}
