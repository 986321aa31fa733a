import { DirectedGraph } from 'graphology';
import type { Dataset } from '../dataset/dataset.js';
import { IDENTITY_EDGE_TYPES } from './flow-graph.js';

/**
 * The identity graph of lateral movement: only `ASSUMES_ROLE`, `IAM_TRUST` and `GRANTS_ACCESS`
 * edges, as collected, one per pair (the first wins). A node with no outgoing identity edge is
 * where a chain ends.
 */
export type IdentityGraph = DirectedGraph<Record<string, never>, { edge_type: string }>;

export function identityGraph(dataset: Dataset): IdentityGraph {
  return dataset.derived('identity_graph', (ds) => {
    const graph: IdentityGraph = new DirectedGraph({ allowSelfLoops: false });
    for (const e of ds.edges) {
      if (!IDENTITY_EDGE_TYPES.has(e.edge_type) || e.source_id === e.target_id) continue;
      graph.mergeNode(e.source_id);
      graph.mergeNode(e.target_id);
      if (!graph.hasEdge(e.source_id, e.target_id))
        graph.addEdge(e.source_id, e.target_id, { edge_type: e.edge_type });
    }
    return graph;
  });
}
