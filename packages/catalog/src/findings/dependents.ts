import type { Dataset } from '../dataset/dataset.js';
import { AbortCheck, dependencyArrowOf } from '../graph/index.js';
import type { CloudAsset } from '../model/asset.js';

/**
 * The dependency graph's "who depends on me" arrows as integer arrays (compressed rows: the
 * dependents of node `i` are `flat[offsets[i]]` to `flat[offsets[i + 1] - 1]`), so counting the
 * transitive dependents of every asset with an open finding is a loop over integers rather than
 * a graphology walk with string keys per step. Built straight from the edges with the graph
 * engine's arrow rule (`dependencyArrowOf`, the one `dependencyGraph` applies): the first
 * top_risks of a dataset then does not build the graphology dependency graph (half a second on
 * the 50,000-asset estate) only to read its arrows back. An arrow repeated by parallel edges is
 * kept twice; the walk's visited marks make that count once. Built once per dataset version, kept
 * across triage (see triage-cache.ts).
 */
interface DependentRows {
  index: ReadonlyMap<string, number>;
  offsets: Int32Array;
  flat: Int32Array;
}

function dependentRows(dataset: Dataset, signal?: AbortSignal): DependentRows {
  return dataset.derived('findings:dependent-rows', (d) => {
    const abort = new AbortCheck(signal);
    // The dependency graph's nodes: every asset, the first of a repeated id.
    const index = new Map<string, number>();
    const assets: CloudAsset[] = [];
    for (const asset of d.assets) {
      if (index.has(asset.id)) continue;
      index.set(asset.id, assets.length);
      assets.push(asset);
    }
    const dependency = new Int32Array(d.edges.length);
    const dependent = new Int32Array(d.edges.length);
    const offsets = new Int32Array(assets.length + 1);
    let arrows = 0;
    for (const edge of d.edges) {
      abort.tick();
      const s = index.get(edge.source_id);
      const t = index.get(edge.target_id);
      if (s === undefined || t === undefined || s === t) continue;
      const source = assets[s] as CloudAsset;
      const arrow = dependencyArrowOf(edge, source, assets[t] as CloudAsset, false);
      if (arrow === null) continue;
      const [from, to] = arrow[0] === source.id ? [s, t] : [t, s];
      dependent[arrows] = from;
      dependency[arrows] = to;
      offsets[to + 1] = (offsets[to + 1] as number) + 1;
      arrows += 1;
    }
    for (let i = 0; i < assets.length; i++)
      offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
    const fill = offsets.slice(0, assets.length);
    const flat = new Int32Array(arrows);
    for (let a = 0; a < arrows; a++) {
      const to = dependency[a] as number;
      const at = fill[to] as number;
      fill[to] = at + 1;
      flat[at] = dependent[a] as number;
    }
    return { index, offsets, flat };
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
