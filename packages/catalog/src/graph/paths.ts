import { AbortCheck } from './abort.js';

/**
 * Breadth-first walks over any adjacency given as a `Successors` function (a graphology graph
 * read in one direction, a filtered view...), for walks small enough that graphology's
 * callbacks cost nothing worth compacting. The large searches live in compact.ts.
 */

/** The next nodes from `node`, each with the label of the hop, in a stable order. */
export type Successors = (node: string) => Iterable<readonly [next: string, label: string]>;

export interface FoundPath {
  nodes: string[];
  /** One label per hop. */
  labels: string[];
}

/**
 * One shortest path to every node within `maxHops` of `source` (breadth-first, first discovery
 * wins): the parent map of the search tree, with the hop label and depth of each node.
 */
export interface SearchTree {
  parent: Map<string, { from: string; label: string }>;
  depth: Map<string, number>;
}

export function bfsTree(next: Successors, source: string, maxHops: number, signal?: AbortSignal): SearchTree {
  const abort = new AbortCheck(signal);
  abort.check();
  const tree: SearchTree = { parent: new Map(), depth: new Map([[source, 0]]) };
  let frontier = [source];
  for (let depth = 1; depth <= maxHops && frontier.length > 0; depth++) {
    const following: string[] = [];
    for (const node of frontier) {
      for (const [to, label] of next(node)) {
        abort.tick();
        if (tree.depth.has(to)) continue;
        tree.depth.set(to, depth);
        tree.parent.set(to, { from: node, label });
        following.push(to);
      }
    }
    frontier = following;
  }
  return tree;
}

/** The path from the tree's root to `node`, or null when the search did not reach it. */
export function pathTo(tree: SearchTree, node: string): FoundPath | null {
  if (!tree.depth.has(node)) return null;
  const nodes = [node];
  const labels: string[] = [];
  let cur = node;
  for (let step = tree.parent.get(cur); step !== undefined; step = tree.parent.get(cur)) {
    nodes.push(step.from);
    labels.push(step.label);
    cur = step.from;
  }
  return { nodes: nodes.reverse(), labels: labels.reverse() };
}
