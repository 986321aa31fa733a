import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateEstate } from '../../bench/estate/index.js';
import { createCatalogLayer, Dataset, type Workspace } from '../../src/index.js';
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import { sampleWorkspace } from '../support/estate.js';
import { seededEstate } from './seeded-estate.js';

/**
 * find_paths hop counts against an independent breadth-first search written here from the raw
 * edges and the documented rules (one edge per node pair, parallel rule edges merged, the flow
 * hops of MCP_TOOLS.md "Graph"), on the sample estate, on the realistic generated estate of the
 * benchmarks (3,000 assets) and on a small seeded estate rich in parallel and reversed edges.
 */

type Mode = 'flow' | 'directed' | 'undirected';
const INTERNET = ['0.0.0.0/0', '::/0'];
const MERGED = new Set(['SECURITY_GROUP_RULE', 'NACL_RULE', 'INTERNET_EXPOSED']);

/** The edge each ordered pair keeps: the last one, unless rule edges merged into the first. */
function pairEdges(edges: readonly NetworkEdge[]): NetworkEdge[] {
  const kept = new Map<string, NetworkEdge>();
  for (const e of edges) {
    const key = `${e.source_id} ${e.target_id}`;
    const old = kept.get(key);
    const merges =
      old !== undefined &&
      MERGED.has(old.edge_type) &&
      MERGED.has(e.edge_type) &&
      old.cidr === e.cidr &&
      old.direction === e.direction;
    if (!merges) kept.set(key, e);
  }
  return [...kept.values()];
}

function adjacency(assets: readonly CloudAsset[], edges: readonly NetworkEdge[], mode: Mode) {
  const type = new Map(assets.map((a) => [a.id, a.asset_type]));
  const adj = new Map<string, string[]>();
  const link = (from: string, to: string) => {
    if (from === to) return;
    const list = adj.get(from) ?? [];
    list.push(to);
    adj.set(from, list);
  };
  for (const e of pairEdges(edges)) {
    const s = e.source_id;
    const t = e.target_id;
    if (mode === 'directed') link(s, t);
    else if (mode === 'undirected') {
      link(s, t);
      link(t, s);
    } else {
      const et = e.edge_type;
      if (['INTERNET_EXPOSED', 'LOAD_BALANCER_TARGET', 'ROUTE', 'PEERING'].includes(et)) link(s, t);
      else if (et === 'SECURITY_GROUP_RULE' || et === 'NACL_RULE') {
        if (e.direction !== 'egress') link(s, t);
      } else if (et === 'ATTACHED_TO') {
        const tt = type.get(t);
        if (tt === 'SECURITY_GROUP' || tt === 'NSG' || tt === 'NACL' || e.relationship === 'PROTECTED_BY_SG')
          link(t, s);
        else if (type.get(s) === 'NETWORK_INTERFACE' || type.get(s) === 'ELASTIC_IP') link(s, t);
      } else if (et === 'CONTAINS') {
        const st = type.get(s);
        if (st === 'VPC' || st === 'VNET' || st === 'SUBNET') link(s, t);
      } else if (et === 'ASSUMES_ROLE' || et === 'IAM_TRUST' || et === 'GRANTS_ACCESS') link(s, t);
    }
  }
  return adj;
}

/** Hop distances from a set of starts (the starts at 0). */
function distances(adj: Map<string, string[]>, starts: readonly string[]): Map<string, number> {
  const dist = new Map(starts.map((s) => [s, 0]));
  let frontier = [...starts];
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const node of frontier)
      for (const to of adj.get(node) ?? []) {
        if (dist.has(to)) continue;
        dist.set(to, d);
        next.push(to);
      }
    frontier = next;
  }
  return dist;
}

async function layerWith(assets: CloudAsset[], edges: NetworkEdge[]): Promise<Layer<Workspace>> {
  const ws = (await sampleWorkspace()) as Workspace;
  ws.add(new Dataset({ name: 'seeded', kind: 'inventory', source: 'inline', assets, edges }));
  return createCatalogLayer({ workspace: ws });
}

async function shortest(
  layer: Layer<Workspace>,
  dataset: string,
  source: string,
  target: string,
  mode: Mode,
): Promise<{ first: number | null; lengths: number[]; paths: string[][] }> {
  const result = await layer.callTool('find_paths', {
    source,
    target,
    mode,
    max_depth: 12,
    max_paths: 3,
    dataset,
  });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  const paths = (result.structured as { paths: { length: number; nodes: { id: string }[] }[] }).paths;
  return {
    first: paths[0]?.length ?? null,
    lengths: paths.map((p) => p.length),
    paths: paths.map((p) => p.nodes.map((n) => n.id)),
  };
}

async function crossCheck(
  layer: Layer<Workspace>,
  dataset: string,
  assets: CloudAsset[],
  edges: NetworkEdge[],
  pairs: [string, string][],
  reachableTargets = 0,
): Promise<Record<Mode, number>> {
  const reached: Record<Mode, number> = { flow: 0, directed: 0, undirected: 0 };
  for (const mode of ['flow', 'directed', 'undirected'] as const) {
    const adj = adjacency(assets, edges, mode);
    const cache = new Map<string, Map<string, number>>();
    const internet = INTERNET.filter((n) => edges.some((e) => e.source_id === n || e.target_id === n));
    const checks: [string, string][] = [...pairs];
    // Random pairs are rarely connected in a sparse estate: add targets the BFS says are reachable.
    for (const source of new Set(pairs.slice(0, reachableTargets).map(([s]) => s))) {
      const starts = source === 'internet' ? internet : [source];
      const reachable = [...distances(adj, starts).keys()].filter((n) => !starts.includes(n));
      for (let k = 1; k <= 3 && reachable.length > 0; k++)
        checks.push([source, reachable[Math.floor((k * reachable.length) / 4)] as string]);
    }
    for (const [source, target] of checks) {
      const starts = source === 'internet' ? internet : [source];
      let dist = cache.get(source);
      if (!dist) {
        dist = distances(adj, starts);
        cache.set(source, dist);
      }
      const expected = dist.get(target);
      const got = await shortest(layer, dataset, source, target, mode);
      const want = expected !== undefined && expected <= 12 ? expected : null;
      expect(got.first, `${mode} ${source} -> ${target}`).toBe(want);
      if (want !== null) reached[mode] += 1;
      // Every path returned is simple, made of real hops, and none is shorter than the first.
      for (const path of got.paths) {
        expect(new Set(path).size).toBe(path.length);
        for (let i = 0; i + 1 < path.length; i++)
          expect(adj.get(path[i] as string) ?? [], `${mode} hop ${path[i]} -> ${path[i + 1]}`).toContain(
            path[i + 1],
          );
      }
      expect([...got.lengths].sort((a, b) => a - b)).toEqual(got.lengths);
    }
  }
  return reached;
}

/** A deterministic index sequence below `size`. */
function picker(seed: number, size: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % size;
  };
}

describe('find_paths hop counts against an independent BFS', () => {
  let sample: { assets: CloudAsset[]; edges: NetworkEdge[] };
  beforeAll(async () => {
    const ds = (await sampleWorkspace()).get('sample');
    sample = { assets: ds.assets, edges: ds.edges };
  });

  it('agree on every source and target pair of the sample estate', async () => {
    const layer = await layerWith([], []);
    const ids = sample.assets.map((a) => a.id);
    const pairs: [string, string][] = [];
    for (const s of ['internet', ...ids.slice(0, 20)]) for (const t of ids) if (s !== t) pairs.push([s, t]);
    const reached = await crossCheck(layer, 'sample', sample.assets, sample.edges, pairs);
    // The comparison means something only if many pairs are connected in every mode.
    expect(reached.flow).toBeGreaterThan(50);
    expect(reached.directed).toBeGreaterThan(50);
    expect(reached.undirected).toBeGreaterThan(500);
  }, 120_000);

  it('agree on a seeded estate of a few thousand assets', async () => {
    const { assets, edges } = seededEstate(13, 100);
    expect(assets.length).toBeGreaterThan(3000);
    const layer = await layerWith(assets, edges);
    const next = picker(7, assets.length);
    const pairs: [string, string][] = [];
    for (let i = 0; i < 60; i++) {
      const source = i % 4 === 0 ? 'internet' : (assets[next()] as CloudAsset).id;
      const target = (assets[next()] as CloudAsset).id;
      if (source !== target) pairs.push([source, target]);
    }
    const reached = await crossCheck(layer, 'seeded', assets, edges, pairs, 20);
    expect(Math.min(reached.flow, reached.directed, reached.undirected)).toBeGreaterThan(30);
  }, 120_000);
  it('agree on the generated benchmark estate of 3,000 assets', async () => {
    const { assets, edges } = generateEstate({ seed: 3, assets: 3000, scans: false });
    const layer = await layerWith(assets, edges);
    const next = picker(11, assets.length);
    const pairs: [string, string][] = [];
    for (let i = 0; i < 60; i++) {
      const source = i % 4 === 0 ? 'internet' : (assets[next()] as CloudAsset).id;
      const target = (assets[next()] as CloudAsset).id;
      if (source !== target) pairs.push([source, target]);
    }
    const reached = await crossCheck(layer, 'seeded', assets, edges, pairs, 20);
    expect(Math.min(reached.flow, reached.directed, reached.undirected)).toBeGreaterThan(30);
  }, 120_000);
});

describe('attack_paths over many targets', () => {
  it('reports progress and finds the same hop counts as the independent BFS', async () => {
    const { assets, edges } = seededEstate(13, 120);
    const layer = await layerWith(assets, edges);
    const progress: [number, number | undefined, string | undefined][] = [];
    const result = await layer.callTool(
      'attack_paths',
      { dataset: 'seeded', max_paths: 100 },
      { onProgress: (done, total, message) => void progress.push([done, total, message]) },
    );
    expect(result.isError).toBe(false);
    const s = result.structured as {
      targets_considered: number;
      paths: { length: number; nodes: { id: string }[] }[];
    };
    expect(s.targets_considered).toBeGreaterThan(1000);
    expect(progress.map(([done, total]) => [done, total])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    // Each ranked path is a shortest one from the internet side: its hop count plus the virtual
    // entry hop equals the BFS distance from the entries (entry points and exposed assets).
    const adj = adjacency(assets, edges, 'flow');
    const entries = [
      ...INTERNET.filter((n) => edges.some((e) => e.source_id === n)),
      ...assets.filter((a) => a.is_internet_exposed).map((a) => a.id),
    ];
    const dist = distances(adj, entries);
    expect(s.paths.length).toBeGreaterThan(10);
    for (const path of s.paths) expect(path.length).toBe(dist.get(path.nodes.at(-1)?.id as string));
  }, 120_000);
});
