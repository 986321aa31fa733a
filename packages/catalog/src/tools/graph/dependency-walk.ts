import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { assetBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveAssetRef } from '../../conventions/references.js';
import { dependencyGraph, walkDependencies } from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { assetRefArg, datasetArg } from '../workspace/args.js';
import { dependencyListOutput } from './output-schemas.js';

/**
 * `depends_on` and `dependents`: one breadth-first walk of the dependency graph, upstream (what
 * the asset needs) or downstream (what needs it). Each asset appears once, at the depth and under
 * the parent where the walk first reached it; the items keep the walk's order.
 */

interface WalkTool {
  name: 'depends_on' | 'dependents';
  title: string;
  description: string;
  direction: 'up' | 'down';
  depthDescription: string;
}

const TOOLS: Record<'depends_on' | 'dependents', WalkTool> = {
  depends_on: {
    name: 'depends_on',
    title: 'Depends on',
    description:
      'Everything one asset needs, breadth-first over the dependency graph: its role, keys, image, subnet, log group, the queue or API that invokes it. Items are asset briefs plus via (edge type), relationship, depth and parent_id (the asset they were reached from).',
    direction: 'up',
    depthDescription: 'Depth limit for the upstream walk.',
  },
  dependents: {
    name: 'dependents',
    title: 'Dependents',
    description:
      'Everything that needs one asset, which is what breaks if it goes away, breadth-first over the dependency graph. Same item shape as depends_on: asset briefs plus via, relationship, depth and parent_id.',
    direction: 'down',
    depthDescription: 'Depth limit for the downstream walk.',
  },
};

function registerWalk(registry: Registry<Workspace>, tool: WalkTool): void {
  registry.tool({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: dependencyListOutput,
    input: {
      ref: assetRefArg(),
      max_depth: z.number().int().min(1).max(15).default(3).describe(tool.depthDescription),
      limit: z.number().int().min(1).max(500).default(100).describe('Maximum items returned.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const asset = resolveAssetRef(dataset, args.ref);
      const graph = dependencyGraph(dataset, ctx.signal);
      const links = walkDependencies(graph, asset.id, tool.direction, args.max_depth, ctx.signal);
      const items = links.slice(0, args.limit).flatMap((link) => {
        const found = dataset.indexes.assetById(link.asset_id);
        if (!found) return [];
        return [
          {
            ...assetBrief(dataset, found),
            via: link.via_edge,
            relationship: link.relationship,
            depth: link.depth,
            parent_id: link.parent_id,
          },
        ];
      });
      return {
        dataset: dataset.name,
        asset: assetBrief(dataset, asset),
        total: links.length,
        returned: items.length,
        truncated: links.length > items.length,
        items,
      };
    },
  });
}

export function registerDependsOn(registry: Registry<Workspace>): void {
  registerWalk(registry, TOOLS.depends_on);
}

export function registerDependents(registry: Registry<Workspace>): void {
  registerWalk(registry, TOOLS.dependents);
}
