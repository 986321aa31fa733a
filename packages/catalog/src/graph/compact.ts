import type { DirectedGraph } from 'graphology';
import type { Attributes } from 'graphology-types';
import { AbortCheck } from './abort.js';
import type { FoundPath } from './paths.js';

/**
 * A read-only compressed adjacency (CSR) of a graphology view, for the path searches. Measured on
 * the generated 50,000-asset estate (bench/graph.ts), breadth-first searches through graphology's
 * per-node callbacks cost several times networkx's, and `find_paths` from the internet ran
 * hundreds of milliseconds; the same searches over integer arrays, guided by distances to the
 * target, take a few. This is the one hand-written structure of the engine; it is built from the
 * graphology graph (same nodes, same neighbour order) and cached beside it.
 */
export interface CompactGraph {
  /** Node index -> node id. */
  readonly ids: readonly string[];
  /** Node id -> node index. */
  indexOf(id: string): number | undefined;
  /** Out-neighbours of node i: `outTargets[outOffsets[i] .. outOffsets[i + 1])`, labels alongside. */
  readonly outOffsets: Int32Array;
  readonly outTargets: Int32Array;
  readonly outLabels: Uint16Array;
  /** In-neighbours (for distances to a target). */
  readonly inOffsets: Int32Array;
  readonly inSources: Int32Array;
  readonly labelNames: readonly string[];
}

function csr(
  lists: number[][],
  labels?: number[][],
): { offsets: Int32Array; values: Int32Array; labels: Uint16Array } {
  const offsets = new Int32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++)
    offsets[i + 1] = (offsets[i] as number) + (lists[i] as number[]).length;
  const total = offsets[lists.length] as number;
  const values = new Int32Array(total);
  const out = new Uint16Array(labels ? total : 0);
  for (let i = 0; i < lists.length; i++) {
    const start = offsets[i] as number;
    values.set(lists[i] as number[], start);
    if (labels) out.set(labels[i] as number[], start);
  }
  return { offsets, values, labels: out };
}

/**
 * The compact form of a graphology graph. `label` names each hop; `keep` drops edges; with
 * `undirected` every edge is walkable both ways (out-neighbours first, then in-neighbours).
 */
export function compactGraph<N extends Attributes, E extends Attributes>(
  graph: DirectedGraph<N, E>,
  label: (attributes: E) => string,
  options: { undirected?: boolean; keep?: (attributes: E) => boolean; signal?: AbortSignal } = {},
): CompactGraph {
  const abort = new AbortCheck(options.signal);
  const ids = graph.nodes();
  const index = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) index.set(ids[i] as string, i);
  const labelIds = new Map<string, number>();
  const labelNames: string[] = [];
  const labelOf = (attributes: E): number => {
    const name = label(attributes);
    let id = labelIds.get(name);
    if (id === undefined) {
      id = labelNames.length;
      labelIds.set(name, id);
      labelNames.push(name);
    }
    return id;
  };
  const keep = options.keep ?? (() => true);
  const outs: number[][] = [];
  const outLabels: number[][] = [];
  const ins: number[][] = [];
  for (const id of ids) {
    abort.tick();
    const targets: number[] = [];
    const labels: number[] = [];
    const sources: number[] = [];
    const seen = options.undirected ? new Set<number>() : null;
    graph.forEachOutEdge(id, (_key, attributes, _source, target) => {
      if (!keep(attributes)) return;
      const t = index.get(target) as number;
      if (seen) {
        if (seen.has(t)) return;
        seen.add(t);
      }
      targets.push(t);
      labels.push(labelOf(attributes));
    });
    if (seen) {
      graph.forEachInEdge(id, (_key, attributes, source) => {
        if (!keep(attributes)) return;
        const s = index.get(source) as number;
        if (seen.has(s)) return;
        seen.add(s);
        targets.push(s);
        labels.push(labelOf(attributes));
      });
    } else {
      graph.forEachInEdge(id, (_key, attributes, source) => {
        if (keep(attributes)) sources.push(index.get(source) as number);
      });
    }
    outs.push(targets);
    outLabels.push(labels);
    ins.push(seen ? targets : sources);
  }
  const out = csr(outs, outLabels);
  const inc = csr(ins);
  return {
    ids,
    indexOf: (id) => index.get(id),
    outOffsets: out.offsets,
    outTargets: out.values,
    outLabels: out.labels,
    inOffsets: inc.offsets,
    inSources: inc.values,
    labelNames,
  };
}

/**
 * The graph with one more node, `id`, whose out-neighbours are `starts` (hop label `label`);
 * nothing leads to it. Used for the virtual internet node without touching the cached graph.
 */
export function withSource(
  g: CompactGraph,
  id: string,
  starts: readonly string[],
  label = 'INTERNET',
): CompactGraph {
  const n = g.ids.length;
  const startIdx = [...new Set(starts.map((s) => g.indexOf(s)).filter((i): i is number => i !== undefined))];
  const labelNames = g.labelNames.includes(label) ? g.labelNames : [...g.labelNames, label];
  const labelId = labelNames.indexOf(label);
  const outOffsets = new Int32Array(n + 2);
  outOffsets.set(g.outOffsets);
  outOffsets[n + 1] = (g.outOffsets[n] as number) + startIdx.length;
  const outTargets = new Int32Array(outOffsets[n + 1] as number);
  outTargets.set(g.outTargets);
  outTargets.set(startIdx, g.outTargets.length);
  const outLabels = new Uint16Array(outTargets.length);
  outLabels.set(g.outLabels);
  outLabels.fill(labelId, g.outLabels.length);
  // Each start gains the new node at the end of its in-list.
  const extra = new Uint8Array(n);
  for (const s of startIdx) extra[s] = 1;
  const inOffsets = new Int32Array(n + 2);
  const inSources = new Int32Array(g.inSources.length + startIdx.length);
  let w = 0;
  for (let i = 0; i < n; i++) {
    inOffsets[i] = w;
    const from = g.inOffsets[i] as number;
    const to = g.inOffsets[i + 1] as number;
    inSources.set(g.inSources.subarray(from, to), w);
    w += to - from;
    if (extra[i]) inSources[w++] = n;
  }
  inOffsets[n] = w;
  inOffsets[n + 1] = w;
  const ids = [...g.ids, id];
  return {
    ids,
    indexOf: (node) => (node === id ? n : g.indexOf(node)),
    outOffsets,
    outTargets,
    outLabels,
    inOffsets,
    inSources,
    labelNames,
  };
}

/** Hops from every node to `target` (within `maxHops`; -1 when farther or never). */
function distancesTo(g: CompactGraph, target: number, maxHops: number, abort: AbortCheck): Int32Array {
  const dist = new Int32Array(g.ids.length).fill(-1);
  dist[target] = 0;
  let frontier = [target];
  for (let d = 1; d <= maxHops && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const v of frontier) {
      for (let k = g.inOffsets[v] as number, end = g.inOffsets[v + 1] as number; k < end; k++) {
        abort.tick();
        const u = g.inSources[k] as number;
        if (dist[u] !== -1) continue;
        dist[u] = d;
        next.push(u);
      }
    }
    frontier = next;
  }
  return dist;
}

interface IntPath {
  nodes: number[];
  labels: number[];
}

/**
 * Scratch state reused by the searches of one Yen run: a generation stamp avoids clearing the
 * per-node arrays between searches.
 */
class Scratch {
  readonly stamp: Uint32Array;
  readonly g: Int32Array;
  readonly parent: Int32Array;
  readonly parentLabel: Int32Array;
  generation = 0;
  constructor(n: number) {
    this.stamp = new Uint32Array(n);
    this.g = new Int32Array(n);
    this.parent = new Int32Array(n);
    this.parentLabel = new Int32Array(n);
  }
}

/**
 * Shortest path from `source` to `target` of at most `maxHops` hops avoiding blocked nodes and
 * hops: A* with the unblocked distances to the target as the (consistent) heuristic, a bucket
 * queue by f, first-in first-out within a bucket, so among equally short paths the one found
 * first in neighbour order wins, as in a breadth-first search.
 */
function guidedPath(
  g: CompactGraph,
  source: number,
  target: number,
  maxHops: number,
  h: Int32Array,
  blockedNodes: Uint8Array,
  blockedHops: ReadonlySet<number>,
  s: Scratch,
  abort: AbortCheck,
): IntPath | null {
  if (h[source] === -1 || (h[source] as number) > maxHops) return null;
  const n = g.ids.length;
  s.generation += 1;
  const gen = s.generation;
  const buckets: number[][] = Array.from({ length: maxHops + 1 }, () => []);
  s.stamp[source] = gen;
  s.g[source] = 0;
  s.parent[source] = -1;
  buckets[h[source] as number]?.push(source);
  for (let f = 0; f <= maxHops; f++) {
    const bucket = buckets[f] as number[];
    for (let q = 0; q < bucket.length; q++) {
      const u = bucket[q] as number;
      const gu = s.g[u] as number;
      if (gu + (h[u] as number) !== f) continue; // a stale entry
      if (u === target) {
        const nodes = [u];
        const labels: number[] = [];
        for (let cur = u; s.parent[cur] !== -1; cur = s.parent[cur] as number) {
          nodes.push(s.parent[cur] as number);
          labels.push(s.parentLabel[cur] as number);
        }
        return { nodes: nodes.reverse(), labels: labels.reverse() };
      }
      for (let k = g.outOffsets[u] as number, end = g.outOffsets[u + 1] as number; k < end; k++) {
        abort.tick();
        const v = g.outTargets[k] as number;
        const hv = h[v] as number;
        if (hv === -1 || blockedNodes[v] || blockedHops.has(u * n + v)) continue;
        const gv = gu + 1;
        if (gv + hv > maxHops) continue;
        if (s.stamp[v] === gen && (s.g[v] as number) <= gv) continue;
        s.stamp[v] = gen;
        s.g[v] = gv;
        s.parent[v] = u;
        s.parentLabel[v] = g.outLabels[k] as number;
        buckets[gv + hv]?.push(v);
      }
    }
  }
  return null;
}

function named(g: CompactGraph, p: IntPath): FoundPath {
  return {
    nodes: p.nodes.map((i) => g.ids[i] as string),
    labels: p.labels.map((l) => g.labelNames[l] as string),
  };
}

/**
 * Shortest simple paths from `source` to `target`, shortest first (Yen's algorithm), at most
 * `limit` paths of at most `maxHops` hops. Equal-length paths come out in the order they were
 * found, which follows the neighbour order. Unknown ends give no path.
 */
export function kShortestPaths(
  g: CompactGraph,
  source: string,
  target: string,
  options: { maxHops: number; limit: number; signal?: AbortSignal },
): FoundPath[] {
  const abort = new AbortCheck(options.signal, 4096);
  abort.check();
  const src = g.indexOf(source);
  const dst = g.indexOf(target);
  if (src === undefined || dst === undefined) return [];
  if (src === dst) return [{ nodes: [source], labels: [] }];
  const n = g.ids.length;
  const h = distancesTo(g, dst, options.maxHops, abort);
  const scratch = new Scratch(n);
  const blocked = new Uint8Array(n);
  const first = guidedPath(g, src, dst, options.maxHops, h, blocked, new Set(), scratch, abort);
  if (first === null) return [];
  const found: IntPath[] = [first];
  const known = new Set<string>([first.nodes.join(',')]);
  const candidates: IntPath[] = [];
  while (found.length < options.limit) {
    abort.check();
    const last = found[found.length - 1] as IntPath;
    for (let i = 0; i < last.nodes.length - 1; i++) {
      const spur = last.nodes[i] as number;
      const blockedHops = new Set<number>();
      for (const p of found) {
        if (p.nodes.length <= i + 1) continue;
        let same = true;
        for (let k = 0; k <= i && same; k++) same = p.nodes[k] === last.nodes[k];
        if (same) blockedHops.add((p.nodes[i] as number) * n + (p.nodes[i + 1] as number));
      }
      for (let k = 0; k < i; k++) blocked[last.nodes[k] as number] = 1;
      const spurPath = guidedPath(g, spur, dst, options.maxHops - i, h, blocked, blockedHops, scratch, abort);
      for (let k = 0; k < i; k++) blocked[last.nodes[k] as number] = 0;
      if (spurPath === null) continue;
      const path: IntPath = {
        nodes: [...last.nodes.slice(0, i), ...spurPath.nodes],
        labels: [...last.labels.slice(0, i), ...spurPath.labels],
      };
      const key = path.nodes.join(',');
      if (known.has(key)) continue;
      known.add(key);
      candidates.push(path);
    }
    if (candidates.length === 0) break;
    // The shortest candidate, the earliest found among equals.
    let best = 0;
    for (let c = 1; c < candidates.length; c++)
      if ((candidates[c] as IntPath).nodes.length < (candidates[best] as IntPath).nodes.length) best = c;
    found.push(candidates.splice(best, 1)[0] as IntPath);
  }
  return found.map((p) => named(g, p));
}

/** A breadth-first search tree: depth (-1 = not reached), parent and hop label of each node. */
export interface CompactTree {
  readonly graph: CompactGraph;
  readonly depth: Int32Array;
  readonly parent: Int32Array;
  readonly parentLabel: Int32Array;
  /** Reached nodes in the order they were reached, the source first. */
  readonly order: readonly number[];
}

/** Breadth-first from `source` up to `maxHops` hops; the first discovery of a node wins. */
export function compactBfs(
  g: CompactGraph,
  source: string,
  maxHops: number,
  signal?: AbortSignal,
): CompactTree {
  const abort = new AbortCheck(signal);
  abort.check();
  const n = g.ids.length;
  const depth = new Int32Array(n).fill(-1);
  const parent = new Int32Array(n).fill(-1);
  const parentLabel = new Int32Array(n).fill(-1);
  const order: number[] = [];
  const src = g.indexOf(source);
  if (src === undefined) return { graph: g, depth, parent, parentLabel, order };
  depth[src] = 0;
  order.push(src);
  for (let q = 0; q < order.length; q++) {
    const u = order[q] as number;
    const du = depth[u] as number;
    if (du >= maxHops) continue;
    for (let k = g.outOffsets[u] as number, end = g.outOffsets[u + 1] as number; k < end; k++) {
      abort.tick();
      const v = g.outTargets[k] as number;
      if (depth[v] !== -1) continue;
      depth[v] = du + 1;
      parent[v] = u;
      parentLabel[v] = g.outLabels[k] as number;
      order.push(v);
    }
  }
  return { graph: g, depth, parent, parentLabel, order };
}

/** The tree's path to `node`, or null when the search did not reach it. */
export function compactPathTo(tree: CompactTree, node: string): FoundPath | null {
  const g = tree.graph;
  const i = g.indexOf(node);
  if (i === undefined || tree.depth[i] === -1) return null;
  const nodes = [i];
  const labels: number[] = [];
  for (let cur = i; tree.parent[cur] !== -1; cur = tree.parent[cur] as number) {
    nodes.push(tree.parent[cur] as number);
    labels.push(tree.parentLabel[cur] as number);
  }
  return named(g, { nodes: nodes.reverse(), labels: labels.reverse() });
}
