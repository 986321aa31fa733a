import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { assetBrief, assetUri } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveAssetRef } from '../../conventions/references.js';
import { CROWN_JEWEL_WEIGHTS } from '../../conventions/risk.js';
import type { Dataset } from '../../dataset/dataset.js';
import { compactBfs, compactRelationship, dependencyGraph, walkDependencies } from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { assetRefArg, datasetArg } from '../workspace/args.js';

/** Data stores that add to the network blast radius's risk score. */
const SENSITIVE_DATA_STORES = new Set([
  'RDS_INSTANCE',
  'AURORA_CLUSTER',
  'AZURE_SQL',
  'CLOUD_SQL',
  'DYNAMODB_TABLE',
]);

/** Availability view: everything that depends on the asset, transitively. */
function dependencyView(dataset: Dataset, id: string, maxDepth: number, limit: number, signal: AbortSignal) {
  const links = walkDependencies(dependencyGraph(dataset, signal), id, 'down', maxDepth, signal);
  const byDepth: Record<string, number> = {};
  const accounts = new Set<string>();
  let exposed = 0;
  for (const link of links) {
    byDepth[String(link.depth)] = (byDepth[String(link.depth)] ?? 0) + 1;
    const asset = dataset.indexes.assetById(link.asset_id);
    if (asset?.account_id) accounts.add(asset.account_id);
    if (asset?.is_internet_exposed) exposed += 1;
  }
  const items = links.slice(0, limit).flatMap((link) => {
    const asset = dataset.indexes.assetById(link.asset_id);
    if (!asset) return [];
    return [
      {
        ...assetBrief(dataset, asset),
        via: link.via_edge,
        relationship: link.relationship,
        depth: link.depth,
        parent_id: link.parent_id,
      },
    ];
  });
  return {
    transitive_dependents: links.length,
    by_depth: byDepth,
    accounts_affected: [...accounts].sort(),
    internet_exposed_dependents: exposed,
    items,
    truncated: links.length > limit,
  };
}

/**
 * Reach view: every descendant in the relationship graph over every edge type (a compromised
 * asset reaches what it points at, identity included), the depth of the breadth-first tree, and
 * the risk score: 0.5 per reachable node plus 2.0 per reachable sensitive data store, capped at 10.
 */
function networkView(dataset: Dataset, id: string, limit: number, signal: AbortSignal) {
  const graph = compactRelationship(dataset, false, signal);
  const tree = compactBfs(graph, id, Number.POSITIVE_INFINITY, signal);
  let maxDepth = 0;
  let stores = 0;
  const sensitive = [];
  for (const i of tree.order) {
    const node = graph.ids[i] as string;
    if (node === id) continue;
    maxDepth = Math.max(maxDepth, tree.depth[i] as number);
    const asset = dataset.indexes.assetById(node);
    if (!asset) continue;
    if (SENSITIVE_DATA_STORES.has(asset.asset_type)) stores += 1;
    if (CROWN_JEWEL_WEIGHTS[asset.asset_type] !== undefined) sensitive.push(asset);
  }
  // Every reachable node counts, placeholders such as a CIDR of an egress rule included, as in
  // the reference's analyzer; only assets can be sensitive.
  const reachable = Math.max(0, tree.order.length - 1);
  sensitive.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    reachable_assets: reachable,
    max_depth: maxDepth,
    risk_score: Math.min(10, 0.5 * reachable + 2.0 * stores),
    sensitive_reachable: sensitive.slice(0, limit).map((a) => assetBrief(dataset, a)),
  };
}

/** `blast_radius`: dependency and network impact of one asset. */
export function registerBlastRadius(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'blast_radius',
    title: 'Blast radius',
    description:
      'What is affected if one asset breaks, changes, is deleted or is compromised. dependency: every transitive dependent up to max_depth (by depth, accounts, internet-exposed ones, the first limit items). network: what the asset reaches in the relationship graph, with a risk score and the crown-jewel assets among them.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      ref: assetRefArg(),
      max_depth: z.number().int().min(1).max(15).default(10).describe('Depth limit for the dependency walk.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(500)
        .default(50)
        .describe('Cap on dependency.items and network.sensitive_reachable.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const asset = resolveAssetRef(dataset, args.ref);
      ctx.link(assetUri(asset.id), asset.name, { mimeType: 'application/json' });
      return {
        dataset: dataset.name,
        asset: assetBrief(dataset, asset),
        dependency: dependencyView(dataset, asset.id, args.max_depth, args.limit, ctx.signal),
        network: networkView(dataset, asset.id, args.limit, ctx.signal),
      };
    },
  });
}
