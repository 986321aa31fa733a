import type { Layer } from '@cloudg/core';
import { betweenness } from 'graphology-metrics/centrality/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateEstate } from '../../bench/estate/index.js';
import { buildRelationshipGraph, sampledBetweenness, sampleNodes } from '../../src/graph/index.js';
import { Dataset, type Workspace } from '../../src/index.js';
import { call, callError, sampleLayer } from './support.js';

/** centrality_top: the reference's examples, the exact and the sampled betweenness. */

let layer: Layer<Workspace>;
let ws: Workspace;
beforeAll(async () => {
  ({ layer, ws } = await sampleLayer());
});

type Obj = Record<string, unknown>;
const rows = (s: Obj) => (s.items as Obj[]).map((i) => [i.id, i.score, i.degree]);

describe('centrality_top', () => {
  it('ranks app-role, vpc-prod and acct-prod by betweenness, unsampled, as documented', async () => {
    const s = await call(layer, 'centrality_top', { metric: 'betweenness', top: 3 });
    expect([s.metric, s.sampled]).toEqual(['betweenness', false]);
    expect(rows(s)).toEqual([
      ['app-role', 0.06078, 5],
      ['vpc-prod', 0.04863, 3],
      ['acct-prod', 0.03805, 2],
    ]);
    expect((s.items as Obj[])[1]).toMatchObject({
      name: 'prod-vpc',
      type: 'VPC',
      open_findings: 1,
      max_severity: 'INFO',
      uri: 'cloudg://assets/vpc-prod',
    });
  });

  it('ranks IAM roles by in-degree, ties in dataset order, as documented', async () => {
    const s = await call(layer, 'centrality_top', { metric: 'in_degree', top: 3, asset_types: ['IAM_ROLE'] });
    expect(rows(s).slice(0, 2)).toEqual([
      ['app-role', 0.04545, 5],
      ['deploy-role', 0.04545, 4],
    ]);
    expect((s.items as Obj[]).every((i) => i.type === 'IAM_ROLE')).toBe(true);
  });

  it('never ranks placeholder nodes, though they count', async () => {
    const s = await call(layer, 'centrality_top', { metric: 'out_degree', top: 200 });
    const ids = (s.items as Obj[]).map((i) => i.id);
    expect(ids).not.toContain('0.0.0.0/0');
    expect(ids).toHaveLength(44);
  });

  it('refuses an unknown metric and an unknown asset type', async () => {
    const e = await callError(layer, 'centrality_top', { metric: 'pagerank' });
    expect(e.text).toMatch(
      /^Invalid arguments: metric: Input should be 'degree', 'in_degree', 'out_degree' or 'betweenness'/,
    );
    const t = await callError(layer, 'centrality_top', { asset_types: ['IAM_ROLL'] });
    expect(t.text).toMatch(/^Unknown asset type\. Did you mean IAM_ROLE, /);
  });
});

describe('betweenness', () => {
  const estate = generateEstate({ seed: 3, assets: 1600, scans: false });

  it('from every source equals graphology-metrics on the sample and a generated estate', async () => {
    const sample = ws.get('sample');
    for (const [assets, edges] of [
      [sample.assets, sample.edges],
      [estate.assets, estate.edges],
    ] as const) {
      const graph = buildRelationshipGraph(assets, edges);
      const exact = betweenness(graph, { getEdgeWeight: null, normalized: true });
      const ours = await sampledBetweenness(graph);
      for (const node of graph.nodes()) expect(ours.get(node)).toBeCloseTo(exact[node] ?? 0, 10);
    }
  }, 60_000);

  it('is sampled above 1,500 nodes, reports progress and stops on abort', async () => {
    ws.add(
      new Dataset({
        name: 'generated',
        kind: 'inventory',
        source: 'inline',
        assets: estate.assets,
        edges: estate.edges,
      }),
    );
    const progress: number[] = [];
    const r = await layer.callTool(
      'centrality_top',
      { metric: 'betweenness', top: 5, dataset: 'generated' },
      { onProgress: (done) => void progress.push(done) },
    );
    const s = r.structured as Obj;
    expect([r.isError, s.sampled, (s.items as Obj[]).length]).toEqual([false, true, 5]);
    expect(progress.at(-1)).toBe(300);

    const graph = buildRelationshipGraph(estate.assets, estate.edges);
    const controller = new AbortController();
    const run = sampledBetweenness(graph, {
      sources: sampleNodes(graph.nodes(), 300, 7),
      signal: controller.signal,
      onProgress: (done) => {
        if (done >= 32) controller.abort(new Error('stop'));
      },
    });
    await expect(run).rejects.toThrow('stop');
  }, 60_000);

  it('draws the same sources for the same seed', () => {
    const nodes = Array.from({ length: 2000 }, (_, i) => `n${i}`);
    expect(sampleNodes(nodes, 300, 7)).toEqual(sampleNodes(nodes, 300, 7));
    expect(new Set(sampleNodes(nodes, 300, 7)).size).toBe(300);
  });
});
