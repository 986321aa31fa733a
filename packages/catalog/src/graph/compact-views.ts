import type { Dataset } from '../dataset/dataset.js';
import { type CompactGraph, compactGraph } from './compact.js';
import { compactFlowFromEdges } from './compact-edges.js';
import { relationshipGraph } from './relationship-graph.js';

/**
 * The compact forms of the views the path searches walk, cached on the dataset beside the
 * graphology graphs (and dropped with them when the dataset changes). The two flow views are
 * built straight from the edges (compact-edges.ts), the same arrays as converting the graphology
 * flow graph but without paying for that graph when nothing else needs it.
 */

/** The flow graph: traffic hops and identity pivots, labelled as paths show them. */
export function compactFlow(dataset: Dataset, signal?: AbortSignal): CompactGraph {
  return dataset.derived('graph.compact.flow', (ds) => compactFlowFromEdges(ds, { identity: true, signal }));
}

/** The flow graph without identity pivots: where traffic alone goes (the exposure analysis). */
export function compactTraffic(dataset: Dataset, signal?: AbortSignal): CompactGraph {
  return dataset.derived('graph.compact.traffic', (ds) =>
    compactFlowFromEdges(ds, { identity: false, signal }),
  );
}

/** The relationship graph, directed or read both ways. */
export function compactRelationship(
  dataset: Dataset,
  undirected: boolean,
  signal?: AbortSignal,
): CompactGraph {
  const key = undirected ? 'graph.compact.undirected' : 'graph.compact.relationship';
  return dataset.derived(key, (ds) =>
    compactGraph(relationshipGraph(ds, signal), (e) => e.edge_type, { undirected, signal }),
  );
}
