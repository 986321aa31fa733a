import { attackPathScore, CROWN_JEWEL_WEIGHTS } from '../../conventions/risk.js';
import type { Dataset } from '../../dataset/dataset.js';
import {
  compactBfs,
  compactFlow,
  compactPathTo,
  type FoundPath,
  INTERNET_NODE,
  internetEntryPoints,
  withSource,
} from '../../graph/index.js';
import { findingsOnPath, withoutVirtualStart } from '../../tools/graph/briefs.js';

/** Paths the report highlights: the best-scored ones. */
const MAX_PATHS = 10;
/** Hops searched, as attack_paths does by default. */
const MAX_DEPTH = 6;

export interface ReportAttackPath {
  nodes: string[];
  labels: string[];
  score: number;
}

/**
 * The highest-scoring routes from the internet to crown-jewel assets, found and ranked the way
 * the `attack_paths` tool does it (one breadth-first search of the flow view from a virtual
 * internet node, scored by target weight, findings on the path and hops).
 */
export function reportAttackPaths(dataset: Dataset, signal?: AbortSignal): ReportAttackPath[] {
  const starts = new Set(internetEntryPoints(dataset));
  for (const a of dataset.assets) if (a.is_internet_exposed) starts.add(a.id);
  if (starts.size === 0) return [];
  const graph = withSource(compactFlow(dataset, signal), INTERNET_NODE, [...starts]);
  const tree = compactBfs(graph, INTERNET_NODE, MAX_DEPTH + 1, signal);
  const scored: { path: FoundPath; score: number; order: number }[] = [];
  dataset.assets.forEach((a, order) => {
    const weight = CROWN_JEWEL_WEIGHTS[a.asset_type];
    if (weight === undefined) return;
    const found = compactPathTo(tree, a.id);
    if (found === null) return;
    const path = withoutVirtualStart(found);
    const score =
      Math.round(attackPathScore(weight, findingsOnPath(dataset, path), path.labels.length + 1) * 10) / 10;
    scored.push({ path, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored
    .slice(0, MAX_PATHS)
    .map((s) => ({ nodes: s.path.nodes, labels: s.path.labels, score: s.score }));
}
