import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveAssetRef } from '../../conventions/references.js';
import type { Dataset } from '../../dataset/dataset.js';
import { type DependencyLink, dependencyGraph, walkDependencies } from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { assetRefArg, datasetArg } from '../workspace/args.js';
import { type AssetDescriptor, assetDescriptor } from './descriptors.js';

/**
 * `dependency_tree`: the breadth-first dependency walks of one asset nested by parent, the view
 * `cloudg deps` prints. Each asset appears once, under the parent where the walk first reached
 * it, so an asset that seems missing from a branch sits higher up.
 */

interface TreeNode extends AssetDescriptor {
  via: string;
  relationship: string | null;
  children: TreeNode[];
}

/** Nest a walk's links under their parents, keeping the walk's order among siblings. */
function nest(dataset: Dataset, root: string, links: readonly DependencyLink[]): TreeNode[] {
  const children = new Map<string, TreeNode[]>([[root, []]]);
  for (const link of links) {
    const asset = dataset.indexes.assetById(link.asset_id);
    if (!asset) continue;
    const node: TreeNode = {
      ...assetDescriptor(asset),
      via: link.via_edge,
      relationship: link.relationship,
      children: [],
    };
    children.set(link.asset_id, node.children);
    children.get(link.parent_id)?.push(node);
  }
  return children.get(root) ?? [];
}

/**
 * Keep at most `budget.left` nodes, depth-first in list order (a node, then its children, then
 * its next sibling); returns the kept forest and notes in `budget.cut` whether any node went.
 */
function prune(nodes: readonly TreeNode[], budget: { left: number; cut: boolean }): TreeNode[] {
  const kept: TreeNode[] = [];
  for (const node of nodes) {
    if (budget.left <= 0) {
      budget.cut = true;
      break;
    }
    budget.left -= 1;
    kept.push({ ...node, children: prune(node.children, budget) });
  }
  return kept;
}

export function registerDependencyTree(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'dependency_tree',
    title: 'Dependency tree',
    description:
      "The nested upstream and downstream dependency tree of one asset, the view `cloudg deps` prints. direction 'up' = what it depends on, 'down' = what depends on it, 'both'. Each node has id, name, arn, type, account_id, region, via, relationship and children; every asset appears once, under the parent where the breadth-first walk first reached it. The trees are cut to max_nodes nodes depth-first in list order (truncated only when nodes were left out).",
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      ref: assetRefArg(),
      direction: z
        .enum(['up', 'down', 'both'])
        .default('both')
        .describe('up = what it depends on, down = what depends on it.'),
      max_depth: z.number().int().min(1).max(6).default(3).describe('Depth of the tree in each direction.'),
      include_hierarchy: z.boolean().default(false).describe('Include org / account containment edges.'),
      max_nodes: z
        .number()
        .int()
        .min(1)
        .max(1000)
        .default(200)
        .describe('Node budget across both trees; pruning is depth-first in list order.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const asset = resolveAssetRef(dataset, args.ref);
      const graph = dependencyGraph(dataset, ctx.signal, { includeHierarchy: args.include_hierarchy });
      const tree = (direction: 'up' | 'down') =>
        nest(dataset, asset.id, walkDependencies(graph, asset.id, direction, args.max_depth, ctx.signal));
      // One budget across both trees, the upstream one first.
      const budget = { left: args.max_nodes, cut: false };
      const result: Record<string, unknown> = { dataset: dataset.name, asset: assetDescriptor(asset) };
      if (args.direction !== 'down') result.depends_on = prune(tree('up'), budget);
      if (args.direction !== 'up') result.dependents = prune(tree('down'), budget);
      result.truncated = budget.cut;
      return result;
    },
  });
}
