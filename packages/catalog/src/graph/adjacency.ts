import type { DirectedGraph } from 'graphology';
import type { Attributes } from 'graphology-types';
import type { Successors } from './paths.js';

/** A graphology graph read as the `Successors` the small walks of paths.ts take. */

/** Follow edges as stored; `label` names each hop from its attributes. */
export function forward<N extends Attributes, E extends Attributes>(
  graph: DirectedGraph<N, E>,
  label: (attributes: E) => string,
): Successors {
  return (node) => {
    if (!graph.hasNode(node)) return [];
    const out: [string, string][] = [];
    graph.forEachOutEdge(node, (_key, attributes, _source, target) => {
      out.push([target, label(attributes)]);
    });
    return out;
  };
}
