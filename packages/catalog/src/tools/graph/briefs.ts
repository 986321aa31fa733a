import { assetBrief, hopBrief, placeholderBrief } from '../../conventions/briefs.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { FoundPath } from '../../graph/index.js';
import { INTERNET_NODE } from '../../graph/index.js';

/** How graph results show nodes and paths: assets as briefs, everything else as placeholders. */

/** The virtual internet node as results show it. */
export const INTERNET_BRIEF = placeholderBrief(INTERNET_NODE, 'internet');

/** A node as a full asset brief, or a placeholder. */
export function nodeBrief(dataset: Dataset, id: string): Record<string, unknown> {
  if (id === INTERNET_NODE) return { ...INTERNET_BRIEF };
  const asset = dataset.indexes.assetById(id);
  return asset ? { ...assetBrief(dataset, asset) } : { ...placeholderBrief(id) };
}

/** A node as a path hop: the short brief of path tools, or a placeholder. */
export function hopNode(dataset: Dataset, id: string): Record<string, unknown> {
  if (id === INTERNET_NODE) return { ...INTERNET_BRIEF };
  const asset = dataset.indexes.assetById(id);
  return asset ? hopBrief(dataset, asset) : { ...placeholderBrief(id) };
}

export function nodeName(dataset: Dataset, id: string): string {
  if (id === INTERNET_NODE) return 'internet';
  return dataset.indexes.assetById(id)?.name ?? id;
}

export interface PathBrief {
  length: number;
  nodes: Record<string, unknown>[];
  edge_types: string[];
  summary: string;
  [extra: string]: unknown;
}

/** A path as `find_paths` shows it: hop count, hop briefs, one edge type per hop, names joined. */
export function pathBrief(dataset: Dataset, path: FoundPath): PathBrief {
  return {
    length: path.labels.length,
    nodes: path.nodes.map((id) => hopNode(dataset, id)),
    edge_types: [...path.labels],
    summary: path.nodes.map((id) => nodeName(dataset, id)).join(' -> '),
  };
}

/** Drop the virtual first node of a path (and its hop). */
export function withoutVirtualStart(path: FoundPath): FoundPath {
  return { nodes: path.nodes.slice(1), labels: path.labels.slice(1) };
}

/** Open findings on every asset of a path. */
export function findingsOnPath(dataset: Dataset, path: FoundPath): number {
  let total = 0;
  for (const id of path.nodes) total += dataset.indexes.findingStats(id).open;
  return total;
}
