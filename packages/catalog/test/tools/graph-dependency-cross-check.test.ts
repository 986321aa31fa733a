import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateEstate } from '../../bench/estate/index.js';
import { createCatalogLayer, Dataset, type Workspace } from '../../src/index.js';
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import { sampleWorkspace } from '../support/estate.js';

/**
 * depends_on and dependents against an independent breadth-first search written here from the
 * raw edges and the documented rules (site/guides/dependencies.md, INVENTORY_REFERENCE.md 6 and
 * 12): forward types make the source need the target, reverse types the target need the source,
 * rule and exposure edges make nothing, only asset-to-asset edges count, and containment by an
 * organization, OU or account (or a `hierarchy` edge) is left out. Compared: the set of assets
 * reached and the depth of each, on the sample estate and on a generated estate of 3,000 assets.
 */

const FORWARD = new Set([
  'REFERENCES',
  'ATTACHED_TO',
  'ROUTE',
  'PEERING',
  'USES_IMAGE',
  'ASSUMES_ROLE',
  'LOGS_TO',
  'LOAD_BALANCER_TARGET',
  'GRANTS_ACCESS',
  'IAM_POLICY_ATTACHMENT',
  'IAM_TRUST',
]);
const REVERSE = new Set(['CONTAINS', 'INVOKES', 'PROTECTS', 'MONITORS', 'MANAGES', 'GOVERNS']);
const CONTAINERS = new Set(['ORGANIZATION', 'ORG_UNIT', 'CLOUD_ACCOUNT']);

/** needs.get(a) = what a needs directly; neededBy the other way. */
function arrows(assets: readonly CloudAsset[], edges: readonly NetworkEdge[]) {
  const type = new Map(assets.map((a) => [a.id, a.asset_type]));
  const needs = new Map<string, Set<string>>();
  const neededBy = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, from: string, to: string) => {
    const set = map.get(from) ?? new Set<string>();
    set.add(to);
    map.set(from, set);
  };
  for (const e of edges) {
    const s = e.source_id;
    const t = e.target_id;
    if (!type.has(s) || !type.has(t) || s === t) continue;
    let dependent: string;
    let dependency: string;
    if (FORWARD.has(e.edge_type)) [dependent, dependency] = [s, t];
    else if (REVERSE.has(e.edge_type)) {
      if (
        e.edge_type === 'CONTAINS' &&
        (CONTAINERS.has(type.get(s) ?? '') || e.properties.hierarchy === true)
      )
        continue;
      [dependent, dependency] = [t, s];
    } else continue;
    add(needs, dependent, dependency);
    add(neededBy, dependency, dependent);
  }
  return { needs, neededBy };
}

function bfs(adj: Map<string, Set<string>>, start: string, maxDepth: number): Map<string, number> {
  const depth = new Map<string, number>([[start, 0]]);
  let frontier = [start];
  for (let d = 1; d <= maxDepth && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const node of frontier)
      for (const to of adj.get(node) ?? [])
        if (!depth.has(to)) {
          depth.set(to, d);
          next.push(to);
        }
    frontier = next;
  }
  depth.delete(start);
  return depth;
}

async function layerWith(name: string, assets: CloudAsset[], edges: NetworkEdge[]) {
  const ws = (await sampleWorkspace()) as Workspace;
  if (name !== 'sample') ws.add(new Dataset({ name, kind: 'inventory', source: 'inline', assets, edges }));
  return createCatalogLayer({ workspace: ws });
}

async function walked(layer: Layer<Workspace>, tool: string, dataset: string, ref: string, maxDepth: number) {
  const r = await layer.callTool(tool, { ref, max_depth: maxDepth, limit: 500, dataset });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  const s = r.structured as { total: number; items: { id: string; depth: number }[] };
  return { total: s.total, depths: new Map(s.items.map((i) => [i.id, i.depth])) };
}

async function crossCheck(
  layer: Layer<Workspace>,
  dataset: string,
  assets: CloudAsset[],
  edges: NetworkEdge[],
  starts: string[],
): Promise<number> {
  const { needs, neededBy } = arrows(assets, edges);
  let compared = 0;
  for (const id of starts)
    for (const [tool, adj] of [
      ['depends_on', needs],
      ['dependents', neededBy],
    ] as const)
      for (const maxDepth of [1, 3, 15]) {
        const want = bfs(adj, id, maxDepth);
        const got = await walked(layer, tool, dataset, id, maxDepth);
        expect(got.total, `${tool} ${id} depth ${maxDepth}`).toBe(want.size);
        // Items are capped at 500: every returned one is in the BFS set at the BFS depth.
        if (want.size <= 500) expect(got.depths).toEqual(want);
        else for (const [node, d] of got.depths) expect(want.get(node)).toBe(d);
        compared += want.size;
      }
  return compared;
}

describe('depends_on and dependents against an independent BFS', () => {
  it('agree on every asset of the sample estate', async () => {
    const ds = (await sampleWorkspace()).get('sample');
    const layer = await layerWith('sample', [], []);
    const compared = await crossCheck(
      layer,
      'sample',
      ds.assets,
      ds.edges,
      ds.assets.map((a) => a.id),
    );
    expect(compared).toBeGreaterThan(200);
  }, 60_000);

  let estate: { assets: CloudAsset[]; edges: NetworkEdge[] };
  beforeAll(() => {
    const { assets, edges } = generateEstate({ seed: 13, assets: 3000, scans: false });
    estate = { assets, edges };
  });

  it('agree on a generated estate of 3,000 assets', async () => {
    const layer = await layerWith('generated', estate.assets, estate.edges);
    // Every KMS key and load balancer (wide dependents) plus a spread of other assets.
    const hubs = estate.assets.filter((a) => a.asset_type === 'KMS_KEY' || a.asset_type === 'LOAD_BALANCER');
    const spread = estate.assets.filter((_, i) => i % 97 === 0);
    const starts = [...new Set([...hubs.slice(0, 15), ...spread].map((a) => a.id))];
    expect(starts.length).toBeGreaterThan(40);
    const compared = await crossCheck(layer, 'generated', estate.assets, estate.edges, starts);
    expect(compared).toBeGreaterThan(1000);
  }, 120_000);

  it('largest_blast_radius counts what the BFS reaches in 10 hops, accounts and exposed ones too', async () => {
    const layer = await layerWith('generated', estate.assets, estate.edges);
    const r = await layer.callTool('largest_blast_radius', { top: 20, dataset: 'generated' });
    const items = (r.structured as { items: Record<string, number | string>[] }).items;
    expect(items.length).toBe(20);
    const { neededBy } = arrows(estate.assets, estate.edges);
    const byId = new Map(estate.assets.map((a) => [a.id, a]));
    for (const item of items) {
      const reached = [...bfs(neededBy, item.id as string, 10).keys()].map(
        (id) => byId.get(id) as CloudAsset,
      );
      expect([item.transitive_dependents, item.accounts_affected, item.internet_exposed_dependents]).toEqual([
        reached.length,
        new Set(reached.flatMap((a) => (a.account_id ? [a.account_id] : []))).size,
        reached.filter((a) => a.is_internet_exposed).length,
      ]);
    }
  }, 60_000);
});
