import { describe, expect, it } from 'vitest';
import { sampleWorkspace } from '../../test/support/estate.js';
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
});
