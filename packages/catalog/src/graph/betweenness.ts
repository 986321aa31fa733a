import type { DirectedGraph } from 'graphology';
import type { Attributes } from 'graphology-types';

/**
 * Betweenness centrality from a subset of sources (Brandes, unweighted, directed), for graphs too
 * large to take every node as a source. graphology-metrics computes the exact measure but from
 * every node and in one synchronous pass, with no way to stop it or to tell anyone how far it
 * got; this walk yields to the event loop between batches of sources, so a timeout's abort and
 * progress notifications get through, and it takes the sources it is given.
 *
 * Scores are normalised as networkx does for a directed graph, 1 / ((n - 1)(n - 2)), and scaled
 * by n / k when k of the n nodes were sources, so a sampled score estimates the exact one.
 */

export interface BetweennessOptions {
  /** Source nodes; every node when absent. */
  sources?: readonly string[];
  signal?: AbortSignal;
  /** Called after each batch with the number of sources done and the total. */
  onProgress?: (done: number, total: number) => Promise<void> | void;
  /** Sources per batch between yields (default 16). */
  batch?: number;
}

/** Compressed adjacency: the out- and in-neighbours of node i, as node indices. */
interface Csr {
  keys: string[];
  outStart: Int32Array;
  out: Int32Array;
  inStart: Int32Array;
  in: Int32Array;
}

function compress<N extends Attributes, E extends Attributes>(graph: DirectedGraph<N, E>): Csr {
  const keys = graph.nodes();
  const index = new Map(keys.map((k, i) => [k, i]));
  const n = keys.length;
  const outStart = new Int32Array(n + 1);
  const inStart = new Int32Array(n + 1);
  const out: number[] = [];
  const inn: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = keys[i] as string;
    outStart[i] = out.length;
    graph.forEachOutNeighbor(key, (nb) => {
      if (nb !== key) out.push(index.get(nb) as number);
    });
    inStart[i] = inn.length;
    graph.forEachInNeighbor(key, (nb) => {
      if (nb !== key) inn.push(index.get(nb) as number);
    });
  }
  outStart[n] = out.length;
  inStart[n] = inn.length;
  return { keys, outStart, out: Int32Array.from(out), inStart, in: Int32Array.from(inn) };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function sampledBetweenness<N extends Attributes, E extends Attributes>(
  graph: DirectedGraph<N, E>,
  options: BetweennessOptions = {},
): Promise<Map<string, number>> {
  const { signal, onProgress, batch = 16 } = options;
  signal?.throwIfAborted();
  const csr = compress(graph);
  const n = csr.keys.length;
  const index = new Map(csr.keys.map((k, i) => [k, i]));
  const sources = options.sources
    ? options.sources.flatMap((s) => (index.has(s) ? [index.get(s) as number] : []))
    : csr.keys.map((_, i) => i);
  const centrality = new Float64Array(n);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const dist = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  for (let s = 0; s < sources.length; s++) {
    const source = sources[s] as number;
    // Breadth-first from the source: distances, shortest-path counts, visit order.
    let head = 0;
    let tail = 0;
    order[tail++] = source;
    dist[source] = 0;
    sigma[source] = 1;
    while (head < tail) {
      const v = order[head++] as number;
      const dv = dist[v] as number;
      for (let j = csr.outStart[v] as number; j < (csr.outStart[v + 1] as number); j++) {
        const w = csr.out[j] as number;
        if (dist[w] === -1) {
          dist[w] = dv + 1;
          order[tail++] = w;
        }
        if (dist[w] === dv + 1) sigma[w] = (sigma[w] as number) + (sigma[v] as number);
      }
    }
    // Dependencies accumulated from the farthest node back, over in-neighbours one level closer.
    for (let i = tail - 1; i > 0; i--) {
      const w = order[i] as number;
      const coeff = (1 + (delta[w] as number)) / (sigma[w] as number);
      for (let j = csr.inStart[w] as number; j < (csr.inStart[w + 1] as number); j++) {
        const v = csr.in[j] as number;
        if (dist[v] === (dist[w] as number) - 1)
          delta[v] = (delta[v] as number) + (sigma[v] as number) * coeff;
      }
      centrality[w] = (centrality[w] as number) + (delta[w] as number);
    }
    for (let i = 0; i < tail; i++) {
      const v = order[i] as number;
      dist[v] = -1;
      sigma[v] = 0;
      delta[v] = 0;
    }
    if ((s + 1) % batch === 0 || s + 1 === sources.length) {
      await onProgress?.(s + 1, sources.length);
      await yieldToLoop();
      signal?.throwIfAborted();
    }
  }
  let scale = n > 2 ? 1 / ((n - 1) * (n - 2)) : 1;
  if (sources.length > 0 && sources.length < n) scale *= n / sources.length;
  const out = new Map<string, number>();
  for (let i = 0; i < n; i++) out.set(csr.keys[i] as string, (centrality[i] as number) * scale);
  return out;
}

/** `k` distinct nodes drawn with a seeded generator (mulberry32 + partial Fisher-Yates). */
export function sampleNodes(nodes: readonly string[], k: number, seed: number): string[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pool = [...nodes];
  const count = Math.min(k, pool.length);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return pool.slice(0, count);
}
