import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { edgeBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import type { Dataset } from '../../dataset/dataset.js';
import { edgeOpensPort, isInternetIngress, resolveGraphRef } from '../../graph/index.js';
import type { NetworkEdge } from '../../model/edge.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';
import { edgeTypesArg, parseEdgeTypes } from './args.js';
import { getEdgesOutput } from './output-schemas.js';

/** The endpoints an edge end may match: the asset, the placeholder, or any internet entry point. */
function endpointMatcher(dataset: Dataset, ref: string): ((node: string) => boolean) | null {
  if (!ref.trim()) return null;
  const resolved = resolveGraphRef(dataset, ref);
  if (resolved.kind === 'internet') {
    const entry = new Set(resolved.entryPoints);
    return (node) => entry.has(node);
  }
  return (node) => node === resolved.id;
}

function crossAccount(dataset: Dataset, edge: NetworkEdge): boolean {
  const source = dataset.indexes.assetById(edge.source_id);
  const target = dataset.indexes.assetById(edge.target_id);
  return Boolean(source?.account_id && target?.account_id && source.account_id !== target.account_id);
}

/** `get_edges`: edge search by endpoint, type, relationship, port and origin. */
export function registerGetEdges(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'get_edges',
    title: 'Get edges',
    description:
      'Search the raw edge list: by source or target (asset references, or internet), edge types, exact relationship, edges between accounts, ingress from the internet, or an open port. Filters combine with AND; the result pages like any list tool.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: getEdgesOutput,
    input: {
      source: z.string().default('').describe("Source asset ref (or 'internet')."),
      target: z.string().default('').describe('Target asset ref.'),
      edge_types: edgeTypesArg(),
      relationship: z.string().default('').describe('Exact relationship / RelationType.'),
      cross_account_only: z
        .boolean()
        .default(false)
        .describe('Only edges whose two endpoints are mapped assets in different accounts.'),
      internet_only: z
        .boolean()
        .default(false)
        .describe(
          'Only ingress edges from the internet (0.0.0.0/0, ::/0, or the Azure Internet / Any / * sources).',
        ),
      port: z.number().int().min(0).max(65535).nullable().default(null).describe('Edges allowing this port.'),
      limit: limitArg(),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const types = parseEdgeTypes(dataset, args.edge_types);
      const source = endpointMatcher(dataset, args.source);
      const target = endpointMatcher(dataset, args.target);
      const relationship = args.relationship.trim();
      const port = args.port;
      const matched: NetworkEdge[] = [];
      for (const edge of dataset.edges) {
        if (types !== null && !types.has(edge.edge_type)) continue;
        if (source !== null && !source(edge.source_id)) continue;
        if (target !== null && !target(edge.target_id)) continue;
        if (relationship && edge.relationship !== relationship) continue;
        if (args.cross_account_only && !crossAccount(dataset, edge)) continue;
        if (args.internet_only && !isInternetIngress(edge)) continue;
        if (port !== null && !edgeOpensPort(edge, port)) continue;
        matched.push(edge);
      }
      const { limit, cursor, dataset: _name, ...query } = args;
      const page = paginate(matched, { dataset, query: { tool: 'get_edges', ...query }, limit, cursor });
      return { dataset: dataset.name, ...page, items: page.items.map((e) => edgeBrief(dataset, e)) };
    },
  });
}
