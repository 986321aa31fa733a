import type { Dataset } from '../dataset/dataset.js';
import type { NetworkEdge } from '../model/edge.js';

/**
 * The raw edges touching each endpoint, in dataset order, outgoing and incoming together (a
 * self-loop once). `neighbors` walks these: it reports parallel edges, which the relationship
 * graph collapses.
 */
export function incidentEdges(dataset: Dataset): ReadonlyMap<string, readonly NetworkEdge[]> {
  return dataset.derived('graph.incident', (ds) => {
    const map = new Map<string, NetworkEdge[]>();
    const add = (node: string, edge: NetworkEdge) => {
      const list = map.get(node);
      if (list === undefined) map.set(node, [edge]);
      else list.push(edge);
    };
    for (const edge of ds.edges) {
      add(edge.source_id, edge);
      if (edge.target_id !== edge.source_id) add(edge.target_id, edge);
    }
    return map;
  });
}
