import { setImmediate as nextTurn } from 'node:timers/promises';
import { FINDING_SORTS } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import { findingFacts, searchTexts, suppressedFlags } from './columns.js';
import { idRankSteps } from './id-ranks.js';
import { sortedPositions } from './sorted.js';
import { FINDING_GROUPS, groupKeyColumn } from './summary.js';

/**
 * The columns the findings tools read, built when a dataset is loaded instead of on the first
 * call that needs them. On the generated estate (100,000 findings) matching every finding to
 * its asset, the facts columns and the sort orders take about a second together, and the
 * targets of list_findings (30 ms) and findings_summary (100 ms) hold for a user's first call
 * too; a call cannot do that work in its budget, so the load does it.
 *
 * The work runs a step at a time with a turn of the event loop between steps, so requests that
 * arrive meanwhile (another client's call, a cancellation) are served between them; the
 * finding-to-asset matching, the longest part, is itself cut into steps of a few thousand
 * findings. Nothing here is a result: these are the same per-version structures the tools would
 * build (`dataset.derived`), so the policy and output pipeline still run on every call. A call
 * that comes first builds what it needs itself, and the preparation stops when the dataset
 * changes under it (the structures would belong to a dropped version) or `signal` fires.
 */
export async function prepareFindings(dataset: Dataset, signal?: AbortSignal): Promise<void> {
  const version = dataset.version;
  const stale = () => signal?.aborted === true || dataset.version !== version;
  const steps: (() => unknown)[] = [
    () => findingFacts(dataset),
    () => suppressedFlags(dataset),
    ...FINDING_SORTS.map((sort) => () => sortedPositions(dataset, sort)),
    // list_findings' `query` reads the lower-cased text of every finding.
    () => searchTexts(dataset),
  ];
  // The ids are ranked (for the sort orders' ties) a slice at a time, before the sort orders.
  for (const _ of idRankSteps(dataset, 10_000)) {
    if (stale()) return;
    await nextTurn();
  }
  for (const step of steps) {
    if (stale()) return;
    step();
    await nextTurn();
  }
  for (const _ of dataset.indexes.matcherSteps(5_000)) {
    if (stale()) return;
    await nextTurn();
  }
  for (const _ of dataset.indexes.findingMapSteps(5_000)) {
    if (stale()) return;
    await nextTurn();
  }
  // The asset grouping first: asset type and account relabel it, each then a short step.
  for (const group of ['asset' as const, ...FINDING_GROUPS.filter((g) => g !== 'asset')]) {
    if (stale()) return;
    groupKeyColumn(dataset, group);
    await nextTurn();
  }
}
