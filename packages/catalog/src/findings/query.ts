import { resolveAssetRef } from '../conventions/references.js';
import { severityFilter } from '../conventions/severity.js';
import { type FindingSort, sortFindings } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import { severityBreakdown } from '../dataset/summary.js';
import type { Finding } from '../model/finding.js';
import type { Severity } from '../model/severity.js';

/** The filters of `list_findings`, as the tool receives them. */
export interface FindingFilterArgs {
  severities?: readonly string[] | null;
  min_severity?: string;
  source_tool?: string;
  framework?: string;
  resource?: string;
  query?: string;
  include_suppressed?: boolean;
}

/** A parsed filter: every argument checked, the asset reference resolved. */
export type FindingPredicate = (finding: Finding) => boolean;

/**
 * Parse the filters into one predicate. Every argument that can be refused (an unknown severity,
 * an asset reference that matches nothing) is checked here, before a single finding is looked at.
 */
export function findingPredicate(dataset: Dataset, args: FindingFilterArgs): FindingPredicate {
  const severity = severityFilter({
    minSeverity: args.min_severity?.trim() || null,
    severities: args.severities ?? null,
  });
  const tool = args.source_tool?.trim().toLowerCase() || null;
  const framework = args.framework?.trim().toLowerCase() || null;
  const text = args.query?.trim().toLowerCase() || null;
  const onAsset = args.resource?.trim()
    ? new Set(dataset.indexes.findingsOf(resolveAssetRef(dataset, args.resource).id))
    : null;
  const searchable = text === null ? null : searchText(dataset);
  const includeSuppressed = args.include_suppressed ?? false;
  return (f) => {
    if (!includeSuppressed && f.is_suppressed) return false;
    if (severity !== null && !severity(f.severity)) return false;
    if (tool !== null && !f.source_tool.toLowerCase().includes(tool)) return false;
    if (framework !== null && !f.compliance_frameworks.some((fw) => fw.toLowerCase().includes(framework)))
      return false;
    if (onAsset !== null && !onAsset.has(f)) return false;
    if (text !== null && !searchable?.get(f)?.includes(text)) return false;
    return true;
  };
}

/**
 * Every finding of the dataset in one sort order, built once per dataset version: a filtered
 * search then only walks this list, so sorting 100,000 findings is not paid on every page.
 */
export function findingsSortedBy(dataset: Dataset, sortBy: FindingSort): readonly Finding[] {
  return dataset.derived(`findings:sorted:${sortBy}`, (d) => sortFindings(d.findings, sortBy));
}

export interface FindingMatches {
  /** The matching findings, in the requested order. */
  items: Finding[];
  /** Matches per severity (every match, not one page), worst first, only severities present. */
  severity_breakdown: Partial<Record<Severity, number>>;
}

/** Filter (see `findingPredicate`) and sort the findings of a dataset. */
export function queryFindings(
  dataset: Dataset,
  args: FindingFilterArgs,
  sortBy: FindingSort,
): FindingMatches {
  const keep = findingPredicate(dataset, args);
  const items = findingsSortedBy(dataset, sortBy).filter(keep);
  return { items, severity_breakdown: severityBreakdown(items.map((f) => f.severity)) };
}

/** Lower-cased title and description of every finding (NUL-joined), per dataset version. */
function searchText(dataset: Dataset): Map<Finding, string> {
  return dataset.derived('findings:search-text', (d) => {
    const map = new Map<Finding, string>();
    for (const f of d.findings) map.set(f, `${f.title}\u0000${f.description}`.toLowerCase());
    return map;
  });
}
