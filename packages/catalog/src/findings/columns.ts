/**
 * The findings of a dataset as columns, by position in `dataset.findings`: what the filters,
 * groupings and top_risks read, laid out so a pass over 100,000 findings is a loop over small
 * integers. On a large estate the findings are spread over the heap and reading one field of
 * each costs more in cache misses than the whole filter, so the loops read these columns and
 * touch a finding only to return it.
 *
 * Facts that triage cannot change (severity, tool, frameworks, risk) are built once per dataset
 * version and kept across suppressions (see triage-cache.ts); the suppression flags are kept too
 * and patched finding by finding when a suppression changes them.
 */
import type { Dataset } from '../dataset/dataset.js';
import { type Finding, findingRiskScore } from '../model/finding.js';
import { severityRank } from '../model/severity.js';

export interface FindingFacts {
  /** Finding -> position. */
  positions: ReadonlyMap<Finding, number>;
  /** Severity rank (CRITICAL 4 ... INFO 0). */
  rank: Uint8Array;
  risk: Float64Array;
  /** Index into `tools`. */
  tool: Uint32Array;
  /** Distinct source tools as written. */
  tools: string[];
  /** Index into `frameworkSets`. */
  frameworks: Uint32Array;
  /** Distinct framework lists (each without repeats) as written. */
  frameworkSets: string[][];
}

function encoder(): { index: (key: string) => number; keys: string[] } {
  const ids = new Map<string, number>();
  const keys: string[] = [];
  return {
    keys,
    index(key) {
      let id = ids.get(key);
      if (id === undefined) {
        id = keys.length;
        ids.set(key, id);
        keys.push(key);
      }
      return id;
    },
  };
}

/** One pass over the findings; kept across triage. */
export function findingFacts(dataset: Dataset): FindingFacts {
  return dataset.derived('findings:facts', (d) => {
    const n = d.findings.length;
    const positions = new Map<Finding, number>();
    const rank = new Uint8Array(n);
    const risk = new Float64Array(n);
    const tool = new Uint32Array(n);
    const frameworks = new Uint32Array(n);
    const tools = encoder();
    const sets = encoder();
    d.findings.forEach((f, i) => {
      positions.set(f, i);
      rank[i] = severityRank(f.severity);
      risk[i] = findingRiskScore(f);
      tool[i] = tools.index(f.source_tool);
      frameworks[i] = sets.index([...new Set(f.compliance_frameworks)].join('\u0000'));
    });
    return {
      positions,
      rank,
      risk,
      tool,
      tools: tools.keys,
      frameworks,
      frameworkSets: sets.keys.map((k) => (k === '' ? [] : k.split('\u0000'))),
    };
  });
}

/** `is_suppressed` of every finding; kept across triage and patched by `patchSuppressedFlags`. */
export function suppressedFlags(dataset: Dataset): Uint8Array {
  return dataset.derived('findings:suppressed-flags', (d) =>
    Uint8Array.from(d.findings, (f) => (f.is_suppressed ? 1 : 0)),
  );
}

/** Bring the flags of `changed` findings up to date, when the flags are built at all. */
export function patchSuppressedFlags(dataset: Dataset, changed: Iterable<Finding>): void {
  if (!dataset.isCached('findings:suppressed-flags')) return;
  const flags = suppressedFlags(dataset);
  const { positions } = findingFacts(dataset);
  for (const f of changed) {
    const at = positions.get(f);
    if (at !== undefined) flags[at] = f.is_suppressed ? 1 : 0;
  }
}

/**
 * The lower-cased title and description (NUL-joined) of every finding, laid end to end in one
 * string: finding `i`'s text runs from `starts[i]` to `starts[i + 1] - 1`, followed by a
 * separator. A search is then one `indexOf` scan of that string, jumping to the next finding at
 * each hit, rather than a substring test per finding (about 50 ms for 100,000 findings, beyond
 * list_findings' 30 ms). Each text is lower-cased on its own, as the per-finding test did, so a
 * match is exactly a match in one finding's text. Kept across triage.
 */
export interface SearchTexts {
  text: string;
  starts: Uint32Array;
}

/** Separates the findings in `SearchTexts.text`; a needle holding it is tested finding by finding. */
const SEPARATOR = '\u0001';

export function searchTexts(dataset: Dataset): SearchTexts {
  return dataset.derived('findings:search-text', (d) => {
    const starts = new Uint32Array(d.findings.length + 1);
    const parts: string[] = [];
    let at = 0;
    d.findings.forEach((f, i) => {
      const text = `${f.title}\u0000${f.description}`.toLowerCase();
      parts.push(text);
      at += text.length + 1;
      starts[i + 1] = at;
    });
    return { text: parts.join(SEPARATOR) + SEPARATOR, starts };
  });
}

/** Flags (by position) of the findings whose searchable text contains `needle` (lower case, non-empty). */
export function textMatches(dataset: Dataset, needle: string): Uint8Array {
  const { text, starts } = searchTexts(dataset);
  const n = starts.length - 1;
  const hits = new Uint8Array(n);
  if (needle.includes(SEPARATOR)) {
    for (let i = 0; i < n; i += 1)
      if (text.slice(starts[i], (starts[i + 1] as number) - 1).includes(needle)) hits[i] = 1;
    return hits;
  }
  let i = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, starts[i + 1])) {
    while ((starts[i + 1] as number) <= at) i += 1;
    hits[i] = 1;
  }
  return hits;
}
