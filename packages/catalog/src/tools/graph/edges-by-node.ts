import type { GraphEdge, RelationshipGraph } from '../../graph/index.js';

/**
 * The export order of edges: node by node in graph order, each node's outgoing edges in insertion
 * order, which is the order networkx lists a DiGraph's edges in (graphology's own edge order is
 * global insertion order).
 */
export function edgesByNode(graph: RelationshipGraph): [string, string, GraphEdge][] {
  const out: [string, string, GraphEdge][] = [];
  graph.forEachNode((node) => {
    graph.forEachOutEdge(node, (_key, attributes, source, target) => {
      out.push([source, target, attributes]);
    });
  });
  return out;
}
