import type { FindingSort } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import { findingFacts } from './columns.js';

function text(a: string | null | undefined, b: string | null | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The positions of the findings in one sort order, the order `sortFindings` (conventions/
 * sorting.ts) gives: `risk` (risk score, then severity, highest first, then id), `severity`,
 * `detected_at` (newest first), `title` (any case), `source_tool` (then risk), ties by id and
 * then file order. The keys are read into arrays first, so the comparison touches no finding
 * (and lower-cases no title) on each of the two million steps of sorting 100,000 findings. Built
 * once per dataset version and kept across triage, which changes no key.
 */
export function sortedPositions(dataset: Dataset, sortBy: FindingSort): Uint32Array {
  return dataset.derived(`findings:columns:${sortBy}`, (d) => {
    const { risk, rank, tool, tools } = findingFacts(d);
    const ids = d.findings.map((f) => f.id);
    const byId = (a: number, b: number) => text(ids[a], ids[b]);
    const r = (i: number) => risk[i] ?? 0;
    const s = (i: number) => rank[i] ?? 0;
    let compare: (a: number, b: number) => number;
    switch (sortBy) {
      case 'risk':
        compare = (a, b) => r(b) - r(a) || s(b) - s(a) || byId(a, b);
        break;
      case 'severity':
        compare = (a, b) => s(b) - s(a) || r(b) - r(a) || byId(a, b);
        break;
      case 'detected_at': {
        const at = d.findings.map((f) => f.detected_at);
        compare = (a, b) => text(at[b], at[a]) || byId(a, b);
        break;
      }
      case 'title': {
        const titles = d.findings.map((f) => f.title.toLowerCase());
        compare = (a, b) => text(titles[a], titles[b]) || byId(a, b);
        break;
      }
      case 'source_tool': {
        const name = (i: number) => tools[tool[i] ?? 0];
        compare = (a, b) => text(name(a), name(b)) || r(b) - r(a) || byId(a, b);
        break;
      }
    }
    // Array.prototype.sort is stable: equal keys keep file order, as sortFindings does.
    return Uint32Array.from(Array.from({ length: d.findings.length }, (_, i) => i).sort(compare));
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
