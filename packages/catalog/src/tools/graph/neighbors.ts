import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { edgeBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import { AbortCheck, incidentEdges, resolveGraphRef } from '../../graph/index.js';
import type { NetworkEdge } from '../../model/edge.js';
import type { Workspace } from '../../workspace/workspace.js';
import { assetRefArg, datasetArg } from '../workspace/args.js';
import { edgeTypesArg, parseEdgeTypes } from './args.js';
import { nodeBrief } from './briefs.js';
import { neighborsOutput } from './output-schemas.js';

type Direction = 'out' | 'in' | 'both';

interface Walk {
  nodes: string[];
  edges: NetworkEdge[];
  truncated: boolean;
}

/**
 * Breadth-first over the raw edges, in dataset order. The walk stops, `truncated`, at the first
 * edge that would take it past `limit` nodes or `2 * limit` edges: the reference leaves open what
 * a truncated walk still lists, and stopping there bounds the work on hub nodes with tens of
 * thousands of edges (their remaining edges are not scanned).
 */
export function walkNeighbors(
  dataset: Dataset,
  start: string,
  options: { direction: Direction; types: ReadonlySet<string> | null; depth: number; limit: number },
  signal?: AbortSignal,
): Walk {
  const abort = new AbortCheck(signal);
  const incident = incidentEdges(dataset);
  const visited = new Set<string>([start]);
  const listed = new Set<NetworkEdge>();
  const walk: Walk = { nodes: [], edges: [], truncated: false };
  const edgeCap = 2 * options.limit;
  let frontier = [start];
  levels: for (let depth = 1; depth <= options.depth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const edge of incident.get(node) ?? []) {
        abort.tick();
        const outgoing = edge.source_id === node;
        const incoming = edge.target_id === node;
        if (options.direction === 'out' && !outgoing) continue;
        if (options.direction === 'in' && !incoming) continue;
        if (options.types !== null && !options.types.has(edge.edge_type)) continue;
        if (listed.has(edge)) continue;
        const other = outgoing ? edge.target_id : edge.source_id;
        const isNew = !visited.has(other);
        if ((isNew && walk.nodes.length >= options.limit) || walk.edges.length >= edgeCap) {
          walk.truncated = true;
          break levels;
        }
        if (isNew) {
          visited.add(other);
          walk.nodes.push(other);
          next.push(other);
        }
        listed.add(edge);
        walk.edges.push(edge);
      }
    }
    frontier = next;
  }
  return walk;
}

/** `neighbors`: assets within N hops and the edges between them. */
export function registerNeighbors(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'neighbors',
    title: 'Neighbors',
    description:
      "Assets within N hops of one asset and the edges walked to reach them, over the raw edge list (parallel edges are all reported). direction 'out' follows edges that start at a node, 'in' edges that end there, 'both' either. Stops adding nodes at limit and edges at twice that (truncated). ref also takes 'internet'.",
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: neighborsOutput,
    input: {
      ref: assetRefArg(),
      direction: z
        .enum(['out', 'in', 'both'])
        .default('both')
        .describe('out = edges from the asset, in = edges to it.'),
      edge_types: edgeTypesArg("Only these EdgeType values, e.g. ['ASSUMES_ROLE','GRANTS_ACCESS']."),
      depth: z.number().int().min(1).max(4).default(1).describe('Hops to walk from the asset.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(500)
        .default(100)
        .describe('Node cap. The edge cap is twice this value.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const types = parseEdgeTypes(dataset, args.edge_types);
      const ref = resolveGraphRef(dataset, args.ref);
      // The internet as a start is its first entry point (0.0.0.0/0 when it exists).
      const start = ref.kind === 'internet' ? (ref.entryPoints[0] as string) : ref.id;
      const walk = walkNeighbors(
        dataset,
        start,
        { direction: args.direction, types, depth: args.depth, limit: args.limit },
        ctx.signal,
      );
      ctx.link(`cloudg://assets/${encodeURIComponent(start)}/neighbors`, 'neighbors', {
        mimeType: 'application/json',
      });
      return {
        dataset: dataset.name,
        asset: nodeBrief(dataset, start),
        nodes: walk.nodes.map((id) => nodeBrief(dataset, id)),
        edges: walk.edges.map((e) => edgeBrief(dataset, e)),
        node_count: walk.nodes.length,
        edge_count: walk.edges.length,
        truncated: walk.truncated,
      };
    },
  });
}
