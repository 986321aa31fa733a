import { describe, expect, it } from 'vitest';
import { generateEstate } from '../../bench/estate/index.js';
import { Dataset } from '../../src/dataset/dataset.js';
import type { CompactGraph } from '../../src/graph/compact.js';
import { compactGraph } from '../../src/graph/compact.js';
import { compactFlowFromEdges } from '../../src/graph/compact-edges.js';
import { flowGraph, hopLabel } from '../../src/graph/flow-graph.js';
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import { sampleWorkspace } from '../support/estate.js';
import { seededEstate } from './seeded-estate.js';

/**
 * The compact flow views built straight from the edges are the graphology flow graph converted,
 * array for array (node order, neighbour order, labels), so every search over them finds the
 * same paths the graphology route found.
 */

function viaGraphology(dataset: Dataset, identity: boolean): CompactGraph {
  return compactGraph(flowGraph(dataset), hopLabel, identity ? {} : { keep: (hop) => !hop.identity });
}

function plain(g: CompactGraph) {
  return {
    ids: [...g.ids],
    outOffsets: [...g.outOffsets],
    outTargets: [...g.outTargets],
    outLabels: [...g.outLabels].map((l) => g.labelNames[l]),
    inOffsets: [...g.inOffsets],
    inSources: [...g.inSources],
    labelNames: [...g.labelNames],
  };
}

function expectSame(dataset: Dataset): void {
  for (const identity of [true, false]) {
    const direct = compactFlowFromEdges(dataset, { identity });
    expect(plain(direct)).toEqual(plain(viaGraphology(dataset, identity)));
    for (const id of direct.ids.slice(0, 50)) expect(direct.indexOf(id)).toBe(direct.ids.indexOf(id));
  }
}

const inline = (name: string, assets: CloudAsset[], edges: NetworkEdge[]) =>
  new Dataset({ name, kind: 'inventory', source: 'inline', assets, edges });

describe('compactFlowFromEdges', () => {
  it('is the converted flow graph on the sample estate', async () => {
    expectSame((await sampleWorkspace()).get('sample'));
  });

  it('is the converted flow graph on seeded estates rich in parallel, reversed and identity edges', () => {
    for (const seed of [1, 7, 13]) {
      const { assets, edges } = seededEstate(seed, 40);
      expectSame(inline(`seeded-${seed}`, assets, edges));
    }
  });

  it('is the converted flow graph on the generated estate of the benchmarks', () => {
    const { assets, edges } = generateEstate({ seed: 5, assets: 3000, scans: false });
    expectSame(inline('generated', assets, edges));
  });

  it('orders numeric node ids first in each neighbour list, as graphology does', () => {
    // graphology keeps neighbours as object keys, which list array indexes first by value.
    const { assets, edges } = seededEstate(3, 20);
    const rename = new Map(assets.map((a, i) => [a.id, i % 3 === 0 ? String(1000 - i) : a.id]));
    const id = (x: string) => rename.get(x) ?? x;
    expectSame(
      inline(
        'numeric',
        assets.map((a) => ({ ...a, id: id(a.id) })),
        edges.map((e) => ({ ...e, source_id: id(e.source_id), target_id: id(e.target_id) })),
      ),
    );
  });
});
