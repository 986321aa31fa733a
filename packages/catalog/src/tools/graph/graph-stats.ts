import type { Registry } from '@cloudg/core';
import { connectedComponents } from 'graphology-components';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import { relationshipGraph } from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/** Relationships `edges_by_relationship` lists at most. */
const TOP_RELATIONSHIPS = 30;

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** `graph_stats`: size and shape of the relationship graph. */
export function registerGraphStats(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'graph_stats',
    title: 'Graph stats',
    description:
      'Size and shape of the relationship graph: nodes (assets and placeholders), raw and graph edge counts, edges by type and by relationship, weakly connected components, isolated assets, density and mean degree.',
    category: 'graph',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    input: { dataset: datasetArg() },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      // Components walk the whole graph: computed once per dataset version.
      const stats = dataset.derived('graph.stats', (ds) => graphStats(ds, ctx.signal));
      // A copy, so nothing downstream can change the cached figures.
      return { dataset: dataset.name, ...structuredClone(stats) };
    },
  });
}

function graphStats(dataset: Dataset, signal: AbortSignal): Record<string, unknown> {
  const graph = relationshipGraph(dataset, signal);
  const byType: Record<string, number> = {};
  const byRelationship = new Map<string, number>();
  for (const e of dataset.edges) {
    byType[e.edge_type] = (byType[e.edge_type] ?? 0) + 1;
    if (e.relationship) byRelationship.set(e.relationship, (byRelationship.get(e.relationship) ?? 0) + 1);
  }
  // Most common first; ties keep first-seen order (Array.prototype.sort is stable).
  const topRelationships = Object.fromEntries(
    [...byRelationship].sort((a, b) => b[1] - a[1]).slice(0, TOP_RELATIONSHIPS),
  );
  let assetNodes = 0;
  let isolated = 0;
  graph.forEachNode((node, attributes) => {
    if (attributes.asset === null) return;
    assetNodes += 1;
    if (graph.degree(node) === 0) isolated += 1;
  });
  signal.throwIfAborted();
  // graphology-components reads a directed graph's edges both ways: weak components.
  const components = connectedComponents(graph);
  const n = graph.order;
  return {
    nodes: n,
    asset_nodes: assetNodes,
    placeholder_nodes: n - assetNodes,
    edges: dataset.edges.length,
    graph_edges: graph.size,
    edges_by_type: byType,
    edges_by_relationship: topRelationships,
    components: components.length,
    largest_component: components.reduce((max, c) => Math.max(max, c.length), 0),
    isolated_assets: isolated,
    density: n > 1 ? round(graph.size / (n * (n - 1)), 6) : 0,
    mean_degree: n > 0 ? round((2 * graph.size) / n, 3) : 0,
  };
}
