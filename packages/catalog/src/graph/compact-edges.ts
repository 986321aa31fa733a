import type { Dataset } from '../dataset/dataset.js';
import type { NetworkEdge } from '../model/edge.js';
import { AbortCheck } from './abort.js';
import type { CompactGraph } from './compact.js';
import { flowHopRule, SG_ADMITS } from './flow-graph.js';
import { mergeable } from './relationship-graph.js';

/**
 * The compact flow views (compact-views.ts) built straight from a dataset's assets and edges,
 * without building the graphology relationship and flow graphs first. On the generated
 * 50,000-asset estate those two graphs cost about a second to build (graphology allocates an
 * object per node and per edge and keys every edge by string), and the first `top_risks` or
 * `internet_exposure` of a dataset only needs the integer adjacency they were converted to.
 *
 * The result is the graph `compactGraph(flowGraph(ds), hopLabel, ...)` gives, array for array:
 * the same node order (assets, then placeholder endpoints as the edges name them), the same pair
 * rules (one edge per ordered pair, parallel rule edges merged, any other edge replacing the
 * earlier one; flow-graph.ts's hop table; a traffic hop winning over an identity pivot on the
 * same pair) and the same neighbour order, so a breadth-first search finds the same parents and
 * paths. test/graph/compact-edges.test.ts holds the two side by side.
 */

/**
 * Whether a node id is an array index (`"0"` to `"4294967294"`). graphology keeps each node's
 * neighbours as the keys of a plain object, and JavaScript lists such keys first, in numeric
 * order, before the others in insertion order; the compact lists follow suit.
 */
function arrayIndexOf(id: string): number {
  if (id.length === 0 || id.length > 10 || (id.length > 1 && id.charCodeAt(0) === 48)) return -1;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  const value = Number(id);
  return value <= 4294967294 ? value : -1;
}

/** Put a CSR row's array-index neighbours first, by value; the rest keep their order. */
function objectKeyOrder(values: Int32Array, from: number, to: number, key: Float64Array): void {
  const row = Array.from(values.subarray(from, to));
  if (!row.some((v) => (key[v] as number) >= 0)) return;
  const numeric = row
    .filter((v) => (key[v] as number) >= 0)
    .sort((a, b) => (key[a] as number) - (key[b] as number));
  const rest = row.filter((v) => (key[v] as number) < 0);
  values.set([...numeric, ...rest], from);
}

function rows(
  n: number,
  count: number,
  owner: Int32Array,
  other: Int32Array,
): { offsets: Int32Array; values: Int32Array; slots: Int32Array } {
  const offsets = new Int32Array(n + 1);
  for (let f = 0; f < count; f++) {
    const o = (owner[f] as number) + 1;
    offsets[o] = (offsets[o] as number) + 1;
  }
  for (let i = 0; i < n; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
  const fill = offsets.slice(0, n);
  const values = new Int32Array(count);
  const slots = new Int32Array(count);
  for (let f = 0; f < count; f++) {
    const o = owner[f] as number;
    const at = fill[o] as number;
    fill[o] = at + 1;
    values[at] = other[f] as number;
    slots[at] = f;
  }
  return { offsets, values, slots };
}

/**
 * For each of `count` ordered pairs (`a[i]`, `b[i]`, node indexes below `n`), the first pair
 * equal to it. Found by grouping on `a` and stamping `b` rather than with a map keyed by
 * `a * n + b`, which passes V8's small-integer range on a 50,000-node graph.
 */
function firstOfPairs(n: number, count: number, a: Int32Array, b: Int32Array): Int32Array {
  const first = new Int32Array(count);
  const grouped = rows(n, count, a, b);
  const seenBy = new Int32Array(n).fill(-1);
  const firstAt = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    for (let j = grouped.offsets[s] as number; j < (grouped.offsets[s + 1] as number); j++) {
      const i = grouped.slots[j] as number;
      const t = b[i] as number;
      if (seenBy[t] !== s) {
        seenBy[t] = s;
        firstAt[t] = i;
      }
      first[i] = firstAt[t] as number;
    }
  }
  return first;
}

/**
 * The flow view of `dataset` as a compact graph: traffic hops, plus identity pivots when
 * `identity` is set (`compactFlow`), without them otherwise (`compactTraffic`).
 */
export function compactFlowFromEdges(
  dataset: Dataset,
  options: { identity: boolean; signal?: AbortSignal },
): CompactGraph {
  const abort = new AbortCheck(options.signal);
  const { assets, edges } = dataset;
  const index = new Map<string, number>();
  const ids: string[] = [];
  const types: (string | null)[] = [];
  for (const asset of assets) {
    if (index.has(asset.id)) continue;
    index.set(asset.id, ids.length);
    ids.push(asset.id);
    types.push(asset.asset_type);
  }
  const node = (id: string): number => {
    let i = index.get(id);
    if (i === undefined) {
      i = ids.length;
      index.set(id, i);
      ids.push(id);
      types.push(null);
    }
    return i;
  };
  const m = edges.length;
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    abort.tick();
    const edge = edges[k] as NetworkEdge;
    src[k] = node(edge.source_id);
    dst[k] = node(edge.target_id);
  }
  const n = ids.length;

  // One edge per ordered pair, in order of first appearance: the edge whose type, direction and
  // relationship the pair ends up with (a merge keeps the earlier edge's).
  const firstEdge = firstOfPairs(n, m, src, dst);
  const carrierOf = new Int32Array(m).fill(-1);
  for (let k = 0; k < m; k++) {
    abort.tick();
    const first = firstEdge[k] as number;
    if (first === k) carrierOf[k] = k;
    else if (!mergeable(edges[carrierOf[first] as number] as NetworkEdge, edges[k] as NetworkEdge))
      carrierOf[first] = k;
  }

  // The hop each pair makes, in pair order.
  const hopFrom: number[] = [];
  const hopTo: number[] = [];
  const hopName: string[] = [];
  const hopPivot: boolean[] = [];
  for (let p = 0; p < m; p++) {
    const k = carrierOf[p] as number;
    if (k < 0) continue;
    abort.tick();
    const edge = edges[k] as NetworkEdge;
    const s = src[k] as number;
    const t = dst[k] as number;
    const rule = flowHopRule(
      edge,
      () => types[s] ?? null,
      () => types[t] ?? null,
    );
    if (rule === null) continue;
    const a = rule.reversed ? t : s;
    const b = rule.reversed ? s : t;
    if (a === b) continue;
    hopFrom.push(a);
    hopTo.push(b);
    hopName.push(rule.reversed ? SG_ADMITS : edge.edge_type);
    hopPivot.push(rule.identity);
  }

  // The flow hops, one per ordered pair of nodes, in the order the flow graph adds them.
  const hops = hopFrom.length;
  const firstHop = firstOfPairs(n, hops, Int32Array.from(hopFrom), Int32Array.from(hopTo));
  const flowOfHop = new Int32Array(hops);
  const from: number[] = [];
  const to: number[] = [];
  const label: string[] = [];
  const pivot: boolean[] = [];
  for (let h = 0; h < hops; h++) {
    const first = firstHop[h] as number;
    if (first === h) {
      flowOfHop[h] = from.length;
      from.push(hopFrom[h] as number);
      to.push(hopTo[h] as number);
      label.push(hopName[h] as string);
      pivot.push(hopPivot[h] as boolean);
      continue;
    }
    const f = flowOfHop[first] as number;
    if (pivot[f] && !hopPivot[h]) {
      label[f] = hopName[h] as string;
      pivot[f] = false;
    }
  }

  // The hops the view keeps, as out- and in-rows.
  const keptFrom: number[] = [];
  const keptTo: number[] = [];
  const keptLabel: string[] = [];
  for (let f = 0; f < from.length; f++) {
    if (!options.identity && pivot[f]) continue;
    keptFrom.push(from[f] as number);
    keptTo.push(to[f] as number);
    keptLabel.push(label[f] as string);
  }
  const count = keptFrom.length;
  const owner = Int32Array.from(keptFrom);
  const other = Int32Array.from(keptTo);
  const out = rows(n, count, owner, other);
  const inc = rows(n, count, other, owner);
  const key = new Float64Array(n);
  let numeric = false;
  for (let i = 0; i < n; i++) {
    key[i] = arrayIndexOf(ids[i] as string);
    if ((key[i] as number) >= 0) numeric = true;
  }
  if (numeric) {
    // Reorder the rows as object keys are ordered, carrying each hop's slot along for its label.
    for (let i = 0; i < n; i++) {
      const a = out.offsets[i] as number;
      const b = out.offsets[i + 1] as number;
      const before = Array.from(out.values.subarray(a, b));
      const slots = Array.from(out.slots.subarray(a, b));
      objectKeyOrder(out.values, a, b, key);
      for (let j = a; j < b; j++) out.slots[j] = slots[before.indexOf(out.values[j] as number)] as number;
      objectKeyOrder(inc.values, inc.offsets[i] as number, inc.offsets[i + 1] as number, key);
    }
  }
  // Label ids in order of first use along the out-rows, as compactGraph numbers them.
  const labelIds = new Map<string, number>();
  const labelNames: string[] = [];
  const outLabels = new Uint16Array(count);
  for (let j = 0; j < count; j++) {
    const name = keptLabel[out.slots[j] as number] as string;
    let id = labelIds.get(name);
    if (id === undefined) {
      id = labelNames.length;
      labelIds.set(name, id);
      labelNames.push(name);
    }
    outLabels[j] = id;
  }
  return {
    ids,
    indexOf: (id) => index.get(id),
    outOffsets: out.offsets,
    outTargets: out.values,
    outLabels,
    inOffsets: inc.offsets,
    inSources: inc.values,
    labelNames,
  };
}
