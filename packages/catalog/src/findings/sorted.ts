import type { FindingSort } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import { findingFacts } from './columns.js';
import { idRanks } from './id-ranks.js';

/**
 * The rank of each value in text order (`<` on strings, as `sortFindings` compares; null as the
 * empty string), equal values equal ranks. The distinct values are sorted once with the built-in
 * string order, so a sort of 100,000 findings then compares integers instead of strings.
 */
function textRanks(values: readonly (string | null | undefined)[]): Uint32Array {
  const distinct = [...new Set(values.map((v) => v ?? ''))].sort();
  const rank = new Map<string, number>();
  distinct.forEach((v, i) => {
    rank.set(v, i);
  });
  return Uint32Array.from(values, (v) => rank.get(v ?? '') ?? 0);
}

/**
 * The positions of the findings in one sort order, the order `sortFindings` (conventions/
 * sorting.ts) gives: `risk` (risk score, then severity, highest first, then id), `severity`,
 * `detected_at` (newest first), `title` (any case), `source_tool` (then risk), ties by id and
 * then file order. Every key is read into a typed array first (text keys as ranks), so the two
 * million comparisons of sorting 100,000 findings touch no finding and compare no string. Built
 * once per dataset version and kept across triage, which changes no key.
 */
export function sortedPositions(dataset: Dataset, sortBy: FindingSort): Uint32Array {
  return dataset.derived(`findings:columns:${sortBy}`, (d) => {
    const { risk, rank, tool, tools } = findingFacts(d);
    const id = idRanks(d);
    // Equal ids keep file order, as the stable sortFindings leaves them.
    const byId = (a: number, b: number) => (id[a] as number) - (id[b] as number) || a - b;
    const r = (i: number) => risk[i] as number;
    const s = (i: number) => rank[i] as number;
    let compare: (a: number, b: number) => number;
    switch (sortBy) {
      case 'risk':
        compare = (a, b) => r(b) - r(a) || s(b) - s(a) || byId(a, b);
        break;
      case 'severity':
        compare = (a, b) => s(b) - s(a) || r(b) - r(a) || byId(a, b);
        break;
      case 'detected_at': {
        const at = textRanks(d.findings.map((f) => f.detected_at));
        compare = (a, b) => (at[b] as number) - (at[a] as number) || byId(a, b);
        break;
      }
      case 'title': {
        const titles = textRanks(d.findings.map((f) => f.title.toLowerCase()));
        compare = (a, b) => (titles[a] as number) - (titles[b] as number) || byId(a, b);
        break;
      }
      case 'source_tool': {
        const names = textRanks(tools);
        const t = (i: number) => names[tool[i] as number] as number;
        compare = (a, b) => t(a) - t(b) || r(b) - r(a) || byId(a, b);
        break;
      }
    }
    const order = new Uint32Array(d.findings.length);
    for (let i = 0; i < order.length; i += 1) order[i] = i;
    return order.sort(compare);
  });
}

/**
 * Every finding of the dataset in one sort order (see `sortedPositions`): a filtered search or a
 * completion walks this list instead of sorting on every call.
 */
export function findingsSortedBy(dataset: Dataset, sortBy: FindingSort): readonly Finding[] {
  return dataset.derived(`findings:sorted:${sortBy}`, (d) =>
    Array.from(sortedPositions(d, sortBy), (i) => d.findings[i] as Finding),
  );
}
