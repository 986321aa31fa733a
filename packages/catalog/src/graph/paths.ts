import { AbortCheck } from './abort.js';

/**
 * Path searches over any adjacency: a graphology graph seen in one direction, both directions,
 * or with a virtual start node in front of it. graphology has shortest paths but no k shortest
 * simple paths, so Yen's algorithm is written here on top of depth-limited breadth-first
 * searches; it is the one hand-written graph algorithm of the engine.
 */

/** The next nodes from `node`, each with the label of the hop, in a stable order. */
export type Successors = (node: string) => Iterable<readonly [next: string, label: string]>;

export interface FoundPath {
  nodes: string[];
  /** One label per hop. */
  labels: string[];
}

/**
 * Shortest path by breadth-first search, at most `maxHops` hops, avoiding the given nodes and
 * hops (`from\0to`). Ties go to the neighbour listed first.
 */
function shortestPath(
  next: Successors,
  source: string,
  target: string,
  maxHops: number,
  avoidNodes: ReadonlySet<string>,
  avoidHops: ReadonlySet<string>,
  abort: AbortCheck,
): FoundPath | null {
  if (source === target) return { nodes: [source], labels: [] };
  const parent = new Map<string, [string, string]>();
  const seen = new Set<string>([source]);
  let frontier = [source];
  for (let depth = 1; depth <= maxHops && frontier.length > 0; depth++) {
    const following: string[] = [];
    for (const node of frontier) {
      for (const [to, label] of next(node)) {
        abort.tick();
        if (seen.has(to) || avoidNodes.has(to) || avoidHops.has(`${node}\u0000${to}`)) continue;
        seen.add(to);
        parent.set(to, [node, label]);
        if (to === target) {
          const nodes = [to];
          const labels: string[] = [];
          let cur = to;
          for (let step = parent.get(cur); step !== undefined; step = parent.get(cur)) {
            nodes.push(step[0]);
            labels.push(step[1]);
            cur = step[0];
          }
          return { nodes: nodes.reverse(), labels: labels.reverse() };
        }
        following.push(to);
      }
    }
    frontier = following;
  }
  return null;
}

/**
 * Shortest simple paths from `source` to `target`, shortest first (Yen), stopping at the first
 * path longer than `maxHops` or once `limit` paths are found. Equal-length paths come out in the
 * order they were found, which follows the adjacency order.
 */
export function shortestSimplePaths(
  next: Successors,
  source: string,
  target: string,
  options: { maxHops: number; limit: number; signal?: AbortSignal },
): FoundPath[] {
  const abort = new AbortCheck(options.signal, 256);
  abort.check();
  const first = shortestPath(next, source, target, options.maxHops, new Set(), new Set(), abort);
  if (first === null) return [];
  const found: FoundPath[] = [first];
  const known = new Set<string>([first.nodes.join('\u0000')]);
  // Candidates with their insertion counter, so equal lengths keep the order they were found in.
  const candidates: { path: FoundPath; order: number }[] = [];
  let counter = 0;
  while (found.length < options.limit) {
    abort.check();
    const last = found[found.length - 1] as FoundPath;
    for (let i = 0; i < last.nodes.length - 1; i++) {
      const spur = last.nodes[i] as string;
      const rootNodes = last.nodes.slice(0, i + 1);
      const avoidHops = new Set<string>();
      for (const p of found) {
        if (p.nodes.length > i + 1 && rootNodes.every((n, k) => p.nodes[k] === n))
          avoidHops.add(`${p.nodes[i]}\u0000${p.nodes[i + 1]}`);
      }
      const avoidNodes = new Set(rootNodes.slice(0, i));
      const spurPath = shortestPath(next, spur, target, options.maxHops - i, avoidNodes, avoidHops, abort);
      if (spurPath === null) continue;
      const path: FoundPath = {
        nodes: [...rootNodes.slice(0, i), ...spurPath.nodes],
        labels: [...last.labels.slice(0, i), ...spurPath.labels],
      };
      const key = path.nodes.join('\u0000');
      if (known.has(key)) continue;
      known.add(key);
      candidates.push({ path, order: counter++ });
    }
    if (candidates.length === 0) break;
    let best = 0;
    for (let c = 1; c < candidates.length; c++) {
      const a = candidates[c] as { path: FoundPath; order: number };
      const b = candidates[best] as { path: FoundPath; order: number };
      if (a.path.nodes.length < b.path.nodes.length) best = c;
    }
    const [chosen] = candidates.splice(best, 1);
    if (!chosen || chosen.path.labels.length > options.maxHops) break;
    found.push(chosen.path);
  }
  return found;
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
