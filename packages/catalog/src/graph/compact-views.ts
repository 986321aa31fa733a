import type { Dataset } from '../dataset/dataset.js';
import { type CompactGraph, compactGraph } from './compact.js';
import { flowGraph, hopLabel } from './flow-graph.js';
import { relationshipGraph } from './relationship-graph.js';

/**
 * The compact forms of the views the path searches walk, cached on the dataset beside the
 * graphology graphs they are built from (and dropped with them when the dataset changes).
 */

/** The flow graph: traffic hops and identity pivots, labelled as paths show them. */
export function compactFlow(dataset: Dataset, signal?: AbortSignal): CompactGraph {
  return dataset.derived('graph.compact.flow', (ds) =>
    compactGraph(flowGraph(ds, signal), hopLabel, { signal }),
  );
}

/** The flow graph without identity pivots: where traffic alone goes (the exposure analysis). */
export function compactTraffic(dataset: Dataset, signal?: AbortSignal): CompactGraph {
  return dataset.derived('graph.compact.traffic', (ds) =>
    compactGraph(flowGraph(ds, signal), hopLabel, { keep: (hop) => !hop.identity, signal }),
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
