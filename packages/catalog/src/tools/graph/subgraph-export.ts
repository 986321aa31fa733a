import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import { AbortCheck, buildRelationshipGraph, incidentEdges, resolveGraphRef } from '../../graph/index.js';
import type { CloudAsset } from '../../model/asset.js';
import type { NetworkEdge } from '../../model/edge.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { edgeTypesArg, parseEdgeTypes } from './args.js';
import { GRAPH_FORMATS, renderGraph } from './graph-formats.js';

interface Neighbourhood {
  nodes: string[];
  truncated: boolean;
}

/**
 * Breadth-first from every seed at once over the raw edges, both directions, in dataset order;
 * nodes are kept until `maxNodes` (seeds first).
 */
function neighbourhood(
  dataset: Dataset,
  seeds: readonly string[],
  depth: number,
  types: ReadonlySet<string> | null,
  maxNodes: number,
  signal: AbortSignal,
): Neighbourhood {
  const abort = new AbortCheck(signal);
  const incident = incidentEdges(dataset);
  const kept = new Set<string>();
  let truncated = false;
  for (const seed of seeds) {
    if (kept.has(seed)) continue;
    if (kept.size >= maxNodes) truncated = true;
    else kept.add(seed);
  }
  let frontier = [...kept];
  for (let hop = 1; hop <= depth && frontier.length > 0 && !truncated; hop++) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const edge of incident.get(node) ?? []) {
        abort.tick();
        if (types !== null && !types.has(edge.edge_type)) continue;
        const other = edge.source_id === node ? edge.target_id : edge.source_id;
        if (kept.has(other)) continue;
        if (kept.size >= maxNodes) {
          truncated = true;
          break;
        }
        kept.add(other);
        next.push(other);
      }
    }
    frontier = next;
  }
  return { nodes: [...kept], truncated };
}

/** `subgraph_export`: the neighbourhood of a few assets as a D3, Cytoscape or GraphML document. */
export function registerSubgraphExport(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'subgraph_export',
    title: 'Subgraph export',
    description:
      'The neighbourhood of a few assets as a self-contained graph document, for visualisation or another tool: each seed resolved (the internet alias works), depth hops in both directions over edge_types (all when unset), at most max_nodes nodes, and the edges between kept nodes. format d3 ({nodes, links}), cytoscape ({elements: {nodes, edges}}) or graphml (an XML string). Restricted: GraphML is one opaque string the privacy transforms cannot look inside. For the whole graph read cloudg://graph/{format}.',
    category: 'graph',
    sensitivity: 'restricted',
    capabilities: ['read_state'],
    input: {
      seeds: z.array(z.string()).min(1).max(50).describe('Asset refs to start from.'),
      depth: z
        .number()
        .int()
        .min(0)
        .max(4)
        .default(1)
        .describe('Hops around each seed (0 = only the seeds).'),
      format: z.enum(GRAPH_FORMATS).default('d3').describe('Output format of `graph`.'),
      max_nodes: z.number().int().min(1).max(2000).default(300).describe('Node cap for the whole sub-graph.'),
      edge_types: edgeTypesArg('Only walk and keep these EdgeType values.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const types = parseEdgeTypes(dataset, args.edge_types);
      const seeds = args.seeds.flatMap((ref) => {
        const resolved = resolveGraphRef(dataset, ref);
        return resolved.kind === 'internet' ? [...resolved.entryPoints] : [resolved.id];
      });
      const walk = neighbourhood(dataset, seeds, args.depth, types, args.max_nodes, ctx.signal);
      const kept = new Set(walk.nodes);
      const assets: CloudAsset[] = [];
      for (const id of walk.nodes) {
        const asset = dataset.indexes.assetById(id);
        if (asset) assets.push(asset);
      }
      const edges: NetworkEdge[] = dataset.edges.filter(
        (e) => kept.has(e.source_id) && kept.has(e.target_id) && (types === null || types.has(e.edge_type)),
      );
      // A fresh graph of what was kept, so parallel rule edges merge as in the whole graph.
      const graph = buildRelationshipGraph(assets, edges, ctx.signal);
      for (const id of walk.nodes) if (!graph.hasNode(id)) graph.addNode(id, { asset: null });
      return {
        dataset: dataset.name,
        format: args.format,
        nodes: graph.order,
        edges: graph.size,
        truncated: walk.truncated,
        graph: renderGraph(graph, args.format),
      };
    },
  });
}
