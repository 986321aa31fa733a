import type { FindingSort } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import { type Finding, findingRiskScore } from '../model/finding.js';
import { severityRank } from '../model/severity.js';
import { findingsSortedBy } from './sorted.js';

/**
 * The findings of one sort order as columns: what a filter reads, laid out so a search over
 * 100,000 findings is a loop over small integers. Source tools and framework sets are
 * dictionary-encoded, so a substring filter is tested once per distinct value, not per finding.
 * Only fields a suppression cannot change are stored (a suppression keeps these columns);
 * suppression is read from `suppressedFlags`, by dataset position. The loop never dereferences a
 * finding it does not keep: on a large estate the findings are spread over the heap, and reading
 * one field of each costs more in cache misses than the whole filter.
 */
export interface FindingColumns {
  order: readonly Finding[];
  /** Index in `dataset.findings` per position (for the per-dataset columns below). */
  position: Uint32Array;
  /** Severity rank (CRITICAL 4 ... INFO 0) per position. */
  rank: Uint8Array;
  /** Index into `tools` per position. */
  tool: Uint32Array;
  /** Distinct source tools, lower case. */
  tools: string[];
  /** Index into `frameworkSets` per position. */
  frameworks: Uint32Array;
  /** Distinct framework lists, each lower case. */
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

export function findingColumns(dataset: Dataset, sortBy: FindingSort): FindingColumns {
  return dataset.derived(`findings:columns:${sortBy}`, (d) => {
    const order = findingsSortedBy(d, sortBy);
    const at = new Map(d.findings.map((f, i) => [f, i]));
    const position = Uint32Array.from(order, (f) => at.get(f) ?? 0);
    const rank = new Uint8Array(order.length);
    const tool = new Uint32Array(order.length);
    const frameworks = new Uint32Array(order.length);
    const tools = encoder();
    const sets = encoder();
    order.forEach((f, i) => {
      rank[i] = severityRank(f.severity);
      tool[i] = tools.index(f.source_tool.toLowerCase());
      frameworks[i] = sets.index(f.compliance_frameworks.join('\u0000').toLowerCase());
    });
    return {
      order,
      position,
      rank,
      tool,
      tools: tools.keys,
      frameworks,
      frameworkSets: sets.keys.map((k) => (k === '' ? [] : k.split('\u0000'))),
    };
  });
}

/** `is_suppressed` of every finding, by dataset position; built again after any triage. */
export function suppressedFlags(dataset: Dataset): Uint8Array {
  return dataset.derived('findings:suppressed-flags', (d) =>
    Uint8Array.from(d.findings, (f) => (f.is_suppressed ? 1 : 0)),
  );
}

/** Lower-cased title and description of every finding (NUL-joined), by dataset position. */
export function searchTexts(dataset: Dataset): readonly string[] {
  return dataset.derived('findings:search-text', (d) =>
    d.findings.map((f) => `${f.title}\u0000${f.description}`.toLowerCase()),
  );
}

/** Severity rank of every finding, by dataset position (kept across triage). */
export function severityRanks(dataset: Dataset): Uint8Array {
  return dataset.derived('findings:ranks', (d) =>
    Uint8Array.from(d.findings, (f) => severityRank(f.severity)),
  );
}

/** `risk_score` of every finding, by dataset position (kept across triage). */
export function riskScores(dataset: Dataset): Float64Array {
  return dataset.derived('findings:risk', (d) => Float64Array.from(d.findings, findingRiskScore));
}
