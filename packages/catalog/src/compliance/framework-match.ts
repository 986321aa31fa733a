import type { Dataset } from '../dataset/dataset.js';

/**
 * The `framework` argument of the compliance tools: case-insensitive, matching a name exactly or
 * as a substring, so `CIS` selects CIS-AWS, CIS-Azure and CIS-GCP together. Empty matches all.
 */
export function frameworkMatcher(query: string | null | undefined): (name: string) => boolean {
  const wanted = (query ?? '').trim().toLowerCase();
  if (!wanted) return () => true;
  return (name) => name.toLowerCase().includes(wanted);
}

/** Names matching a query, in the order given. */
export function matchFrameworks(names: readonly string[], query: string | null | undefined): string[] {
  const matches = frameworkMatcher(query);
  return names.filter(matches);
}

/** Names matching a query, an exact (case-insensitive) match preferred over substrings. */
export function matchFrameworksPreferExact(names: readonly string[], query: string): string[] {
  const wanted = query.trim().toLowerCase();
  const exact = names.filter((n) => n.toLowerCase() === wanted);
  return exact.length ? exact : matchFrameworks(names, query);
}

/** Frameworks a dataset names, in its compliance results or its findings' tags, sorted. */
export function datasetFrameworks(dataset: Dataset): string[] {
  return dataset.derived('compliance-frameworks', () => {
    const names = new Set<string>();
    for (const c of dataset.compliance) names.add(c.framework);
    for (const f of dataset.findings) for (const fw of f.compliance_frameworks) names.add(fw);
    return [...names].sort();
  });
}

/** Compare control ids the way people number them: `1.4` before `1.16`, `CIS-1.4` after `5.2`. */
export function compareControlIds(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
}
