import { type FindingSort, sortFindings } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';

/**
 * Every finding of the dataset in one sort order, built once per dataset version (and kept
 * across suppressions, which change no sort key): a filtered search walks this list instead of
 * sorting on every page.
 */
export function findingsSortedBy(dataset: Dataset, sortBy: FindingSort): readonly Finding[] {
  return dataset.derived(`findings:sorted:${sortBy}`, (d) => sortFindings(d.findings, sortBy));
}
