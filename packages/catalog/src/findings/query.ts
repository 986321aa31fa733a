import { resolveAssetRef } from '../conventions/references.js';
import { severityFilter } from '../conventions/severity.js';
import { type FindingSort, sortFindings } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import { SEVERITIES, type Severity, severityRank } from '../model/severity.js';
import { findingFacts, suppressedFlags, textMatches } from './columns.js';
import { sortedPositions } from './sorted.js';

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

export interface FindingMatches {
  /** The matching findings, in the requested order. */
  items: Finding[];
  /** Matches per severity (every match, not one page), worst first, only severities present. */
  severity_breakdown: Partial<Record<Severity, number>>;
}

/** A parsed filter: every argument checked, the asset reference resolved, before any finding is read. */
interface ParsedFilter {
  /** Allowed severity ranks (index = rank), or null for any. */
  ranks: Uint8Array | null;
  tool: string | null;
  framework: string | null;
  text: string | null;
  /** The findings on the named asset, or null without `resource`. */
  onAsset: readonly Finding[] | null;
  includeSuppressed: boolean;
}

function parseFilter(dataset: Dataset, args: FindingFilterArgs): ParsedFilter {
  const severity = severityFilter({
    minSeverity: args.min_severity?.trim() || null,
    severities: args.severities ?? null,
  });
  let ranks: Uint8Array | null = null;
  if (severity !== null) {
    ranks = new Uint8Array(SEVERITIES.length);
    for (const s of SEVERITIES) if (severity(s)) ranks[severityRank(s)] = 1;
  }
  return {
    ranks,
    tool: args.source_tool?.trim().toLowerCase() || null,
    framework: args.framework?.trim().toLowerCase() || null,
    text: args.query?.trim().toLowerCase() || null,
    onAsset: args.resource?.trim()
      ? dataset.indexes.findingsOf(resolveAssetRef(dataset, args.resource).id)
      : null,
    includeSuppressed: args.include_suppressed ?? false,
  };
}

function breakdown(counts: Uint32Array): Partial<Record<Severity, number>> {
  const out: Partial<Record<Severity, number>> = {};
  for (const s of SEVERITIES) {
    const n = counts[severityRank(s)] ?? 0;
    if (n > 0) out[s] = n;
  }
  return out;
}

/**
 * Filter and sort the findings of a dataset: `severities` an exact set, `min_severity` a floor,
 * `source_tool` and `framework` case-insensitive substrings, `resource` an asset reference,
 * `query` a substring of title or description; suppressed findings only with
 * `include_suppressed`. A search by asset sorts that asset's few findings; any other walks the
 * cached columns of the sort order once.
 */
export function queryFindings(
  dataset: Dataset,
  args: FindingFilterArgs,
  sortBy: FindingSort,
): FindingMatches {
  const filter = parseFilter(dataset, args);
  const counts = new Uint32Array(SEVERITIES.length);
  const items: Finding[] = [];
  const needle = filter.text;
  const textOk = (f: Finding) =>
    needle === null || `${f.title}\u0000${f.description}`.toLowerCase().includes(needle);

  if (filter.onAsset !== null) {
    for (const f of sortFindings(filter.onAsset, sortBy)) {
      if (!filter.includeSuppressed && f.is_suppressed) continue;
      const rank = severityRank(f.severity);
      if (filter.ranks !== null && !filter.ranks[rank]) continue;
      if (filter.tool !== null && !f.source_tool.toLowerCase().includes(filter.tool)) continue;
      const fw = filter.framework;
      if (fw !== null && !f.compliance_frameworks.some((x) => x.toLowerCase().includes(fw))) continue;
      if (!textOk(f)) continue;
      items.push(f);
      counts[rank] = (counts[rank] ?? 0) + 1;
    }
    return { items, severity_breakdown: breakdown(counts) };
  }

  const facts = findingFacts(dataset);
  const order = sortedPositions(dataset, sortBy);
  const suppressed = suppressedFlags(dataset);
  const texts = filter.text === null ? null : textMatches(dataset, filter.text);
  // Each distinct tool and framework list is tested once.
  const tool = filter.tool;
  const toolOk =
    tool === null ? null : Uint8Array.from(facts.tools, (t) => (t.toLowerCase().includes(tool) ? 1 : 0));
  const fw = filter.framework;
  const frameworkOk =
    fw === null
      ? null
      : Uint8Array.from(facts.frameworkSets, (set) =>
          set.some((x) => x.toLowerCase().includes(fw)) ? 1 : 0,
        );
  const { ranks, includeSuppressed } = filter;
  const all = dataset.findings;
  for (let i = 0; i < order.length; i += 1) {
    const at = order[i] ?? 0;
    if (!includeSuppressed && suppressed[at]) continue;
    const r = facts.rank[at] ?? 0;
    if (ranks !== null && !ranks[r]) continue;
    if (toolOk !== null && !toolOk[facts.tool[at] ?? 0]) continue;
    if (frameworkOk !== null && !frameworkOk[facts.frameworks[at] ?? 0]) continue;
    if (texts !== null && !texts[at]) continue;
    items.push(all[at] as Finding);
    counts[r] = (counts[r] ?? 0) + 1;
  }
  return { items, severity_breakdown: breakdown(counts) };
}
