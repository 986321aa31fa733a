import { describe, expect, it } from 'vitest';
import { buildDependencyGraph } from '../../src/graph/dependency-graph.js';
import {
  buildRelationshipGraph,
  compactGraph,
  kShortestPaths,
  walkDependencies,
} from '../../src/graph/index.js';
import { Dataset } from '../../src/index.js';
import { seededEstate } from './seeded-estate.js';

/** Long graph work stops when the call's signal fires. */
describe('cancellation', () => {
  const { assets, edges } = seededEstate(5, 60);
  const aborted = AbortSignal.abort(new Error('stop'));

  it('stops building a graph', () => {
    expect(() => buildRelationshipGraph(assets, edges, aborted)).toThrow('stop');
  });

  it('stops a path search and a dependency walk', () => {
    const graph = buildRelationshipGraph(assets, edges);
    const compact = compactGraph(graph, (e) => e.edge_type);
    expect(() => compactGraph(graph, (e) => e.edge_type, { signal: aborted })).toThrow('stop');
    expect(() =>
      kShortestPaths(compact, 'vpc-0', 'role-3-1', { maxHops: 12, limit: 50, signal: aborted }),
    ).toThrow('stop');
    const deps = buildDependencyGraph(
      new Dataset({ name: 'x', kind: 'inventory', source: 'inline', assets, edges }),
    );
    expect(() => walkDependencies(deps, 'key-0', 'down', 10, aborted)).toThrow('stop');
  });
});
