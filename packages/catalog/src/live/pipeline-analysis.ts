import { CROWN_JEWEL_WEIGHTS } from '../conventions/risk.js';
import type { Dataset } from '../dataset/dataset.js';
import {
  compactBfs,
  compactFlow,
  compactPathTo,
  INTERNET_NODE,
  internetEntryPoints,
  withSource,
} from '../graph/index.js';

/** attack_paths' default depth: hops from the internet, the virtual entry hop not counted. */
const MAX_DEPTH = 8;

/**
 * How many crown-jewel assets an attacker can reach from the internet over network-flow edges:
 * the number of paths `attack_paths` would rank with its defaults (one shortest path per target).
 */
export function countAttackPaths(dataset: Dataset, signal?: AbortSignal): number {
  const starts = new Set(internetEntryPoints(dataset));
  for (const a of dataset.assets) if (a.is_internet_exposed) starts.add(a.id);
  if (starts.size === 0) return 0;
  const graph = withSource(compactFlow(dataset, signal), INTERNET_NODE, [...starts]);
  const tree = compactBfs(graph, INTERNET_NODE, MAX_DEPTH + 1, signal);
  let found = 0;
  for (const a of dataset.assets) {
    if (CROWN_JEWEL_WEIGHTS[a.asset_type] === undefined) continue;
    if (compactPathTo(tree, a.id) !== null) found += 1;
  }
  return found;
}
