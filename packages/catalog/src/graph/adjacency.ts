import type { DirectedGraph } from 'graphology';
import type { Attributes } from 'graphology-types';
import type { Successors } from './paths.js';

/** Ways to read a graphology graph as the `Successors` the path searches take. */

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

/** Follow edges either way (outgoing first); the label is the edge's, whichever way it points. */
export function undirected<N extends Attributes, E extends Attributes>(
  graph: DirectedGraph<N, E>,
  label: (attributes: E) => string,
): Successors {
  return (node) => {
    if (!graph.hasNode(node)) return [];
    const out: [string, string][] = [];
    const seen = new Set<string>();
    graph.forEachOutEdge(node, (_key, attributes, _source, target) => {
      if (!seen.has(target)) {
        seen.add(target);
        out.push([target, label(attributes)]);
      }
    });
    graph.forEachInEdge(node, (_key, attributes, source) => {
      if (!seen.has(source)) {
        seen.add(source);
        out.push([source, label(attributes)]);
      }
    });
    return out;
  };
}

/**
 * `next` with a virtual node in front: from `virtual` the walk steps to each of `starts` (hop
 * label `label`); every other node is read through `next`. Nothing leads back to `virtual`.
 */
export function withVirtualStart(
  next: Successors,
  virtual: string,
  starts: readonly string[],
  label = 'INTERNET',
): Successors {
  const first = starts.map((s) => [s, label] as const);
  return (node) => (node === virtual ? first : next(node));
}
