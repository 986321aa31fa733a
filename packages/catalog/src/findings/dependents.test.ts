import { describe, expect, it } from 'vitest';
import { generateEstate } from '../../bench/estate/index.js';
import { seededEstate } from '../../test/graph/seeded-estate.js';
import { sampleWorkspace } from '../../test/support/estate.js';
import { Dataset } from '../dataset/dataset.js';
import { dependencyGraph, walkDependencies } from '../graph/index.js';
import { dependentCounter } from './dependents.js';

describe('dependentCounter', () => {
  it('counts what walkDependencies lists downwards, at every depth, for every asset', async () => {
    const dataset = (await sampleWorkspace()).get('sample');
    const graph = dependencyGraph(dataset);
    for (const depth of [1, 2, 6]) {
      const count = dependentCounter(dataset, depth);
      for (const asset of dataset.assets)
        expect(count(asset.id), `${asset.id} at depth ${depth}`).toBe(
          walkDependencies(graph, asset.id, 'down', depth).length,
        );
    }
    expect(dependentCounter(dataset, 6)('no-such-asset')).toBe(0);
  });

  it('counts what walkDependencies lists on the generated and seeded estates', () => {
    const estates = [generateEstate({ seed: 4, assets: 2000, scans: false }), seededEstate(9, 40)];
    for (const { assets, edges } of estates) {
      const dataset = new Dataset({ name: 'estate', kind: 'inventory', source: 'inline', assets, edges });
      const graph = dependencyGraph(dataset);
      const count = dependentCounter(dataset, 6);
      for (const asset of dataset.assets)
        expect(count(asset.id), asset.id).toBe(walkDependencies(graph, asset.id, 'down', 6).length);
    }
  });
});
