import type { Dataset } from '../dataset/dataset.js';
import { AbortCheck, dependencyGraph } from '../graph/index.js';

/**
 * The dependency graph's "who depends on me" arrows as integer arrays (compressed rows: the
 * dependents of node `i` are `flat[offsets[i]]` to `flat[offsets[i + 1] - 1]`), so counting the
 * transitive dependents of every asset with an open finding is a loop over integers rather than
 * a graphology walk with string keys per step. Built once per dataset version from the graph
 * engine's dependency graph, and kept across triage (see triage-cache.ts).
 */
interface DependentRows {
  index: ReadonlyMap<string, number>;
  offsets: Int32Array;
  flat: Int32Array;
}

function dependentRows(dataset: Dataset, signal?: AbortSignal): DependentRows {
  return dataset.derived('findings:dependent-rows', (d) => {
    const graph = dependencyGraph(d, signal);
    const index = new Map<string, number>();
    graph.forEachNode((node) => {
      index.set(node, index.size);
    });
    const offsets = new Int32Array(index.size + 1);
    const flat: number[] = [];
    let i = 0;
    graph.forEachNode((node) => {
      graph.forEachInNeighbor(node, (neighbor) => {
        flat.push(index.get(neighbor) ?? 0);
      });
      i += 1;
      offsets[i] = flat.length;
    });
    return { index, offsets, flat: Int32Array.from(flat) };
  });
}

/**
 * Counts of transitive dependents within `depth` hops (the breadth-first walk of
 * `walkDependencies(graph, id, 'down', depth)`, counted instead of listed). One counter serves a
 * whole `top_risks` call: its visited marks are stamped with the walk's number, so no walk
 * allocates a set.
 */
export function dependentCounter(
  dataset: Dataset,
  depth: number,
  signal?: AbortSignal,
): (assetId: string) => number {
  const { index, offsets, flat } = dependentRows(dataset, signal);
  const stamp = new Int32Array(index.size);
  const abort = new AbortCheck(signal, 256);
  let walk = 0;
  let frontier = new Int32Array(index.size);
  let next = new Int32Array(index.size);
  return (assetId) => {
    const start = index.get(assetId);
    if (start === undefined) return 0;
    abort.tick();
    walk += 1;
    stamp[start] = walk;
    frontier[0] = start;
    let size = 1;
    let count = 0;
    for (let d = 1; d <= depth && size > 0; d += 1) {
      let found = 0;
      for (let f = 0; f < size; f += 1) {
        const node = frontier[f] ?? 0;
        for (let j = offsets[node] ?? 0; j < (offsets[node + 1] ?? 0); j += 1) {
          const other = flat[j] ?? 0;
          if (stamp[other] === walk) continue;
          stamp[other] = walk;
          next[found] = other;
          found += 1;
        }
      }
      count += found;
      [frontier, next] = [next, frontier];
      size = found;
    }
    return count;
  };
}
