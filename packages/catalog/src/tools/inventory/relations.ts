import { edgeBrief } from '../../conventions/briefs.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { NetworkEdge } from '../../model/edge.js';
import { dependencyDirection } from '../meta/vocabulary/index.js';

/**
 * One-hop facts about a node that come straight from the edge list: edge counts by type,
 * degree in the relationship graph, and direct dependency counts.
 */

/** Edge counts by edge type, in first-seen order. */
export function countByEdgeType(edges: readonly NetworkEdge[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of edges) out[e.edge_type] = (out[e.edge_type] ?? 0) + 1;
  return out;
}

/** Degree in the relationship graph: parallel edges between the same two nodes count once. */
export function degreeOf(dataset: Dataset, node: string): { in: number; out: number } {
  const idx = dataset.indexes;
  const ins = new Set(idx.incoming(node).map((e) => e.source_id));
  const outs = new Set(idx.outgoing(node).map((e) => e.target_id));
  return { in: ins.size, out: outs.size };
}

/** Direct (one-hop) dependencies and dependents of an asset; only assets count as either. */
export function directDependencies(
  dataset: Dataset,
  assetId: string,
): { direct_depends_on: number; direct_dependents: number } {
  const idx = dataset.indexes;
  const dependsOn = new Set<string>();
  const dependents = new Set<string>();
  const note = (set: Set<string>, other: string) => {
    if (other !== assetId && idx.assetById(other)) set.add(other);
  };
  for (const e of idx.outgoing(assetId)) {
    const dir = dependencyDirection(e.edge_type);
    if (dir === 'forward') note(dependsOn, e.target_id);
    else if (dir === 'reverse') note(dependents, e.target_id);
  }
  for (const e of idx.incoming(assetId)) {
    const dir = dependencyDirection(e.edge_type);
    if (dir === 'forward') note(dependents, e.source_id);
    else if (dir === 'reverse') note(dependsOn, e.source_id);
  }
  return { direct_depends_on: dependsOn.size, direct_dependents: dependents.size };
}

/** Relation counts plus a sample of edge briefs (outgoing first). */
export function relationsOf(
  dataset: Dataset,
  node: string,
  maxSample: number,
): {
  outgoing: Record<string, number>;
  incoming: Record<string, number>;
  sample: Record<string, unknown>[];
  total: number;
  truncated: boolean;
} {
  const outgoing = dataset.indexes.outgoing(node);
  const incoming = dataset.indexes.incoming(node);
  const all = [...outgoing, ...incoming];
  return {
    outgoing: countByEdgeType(outgoing),
    incoming: countByEdgeType(incoming),
    sample: all.slice(0, maxSample).map((e) => edgeBrief(dataset, e)),
    total: all.length,
    truncated: all.length > maxSample,
  };
}
