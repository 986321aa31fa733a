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

/** Lower-cased title and description of every finding (NUL-joined); kept across triage. */
export function searchTexts(dataset: Dataset): readonly string[] {
  return dataset.derived('findings:search-text', (d) =>
    d.findings.map((f) => `${f.title}\u0000${f.description}`.toLowerCase()),
  );
}
