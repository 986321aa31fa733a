import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { dependencyGraph, walkDependencies } from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { assetDescriptor } from './descriptors.js';
import { byIdDescending } from './shared-dependencies.js';

/** How deep each candidate's dependents are walked, as `cloudg deps` does. */
const WALK_DEPTH = 10;
/** Candidates per requested row: walking every asset of a large estate is too slow. */
const CANDIDATES_PER_ROW = 4;

/** `largest_blast_radius`: the assets whose failure or change reaches the most others. */
export function registerLargestBlastRadius(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'largest_blast_radius',
    title: 'Largest blast radius',
    description:
      'The assets whose failure or change affects the most others: the 4 x top assets with the most direct dependents, each walked downstream 10 hops, ranked by transitive_dependents, with accounts_affected (a count) and internet_exposed_dependents. Use blast_radius(ref) for the detail of one.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      top: z.number().int().min(1).max(100).default(15).describe('Number of assets returned.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const graph = dependencyGraph(dataset, ctx.signal);
      // Candidates: most direct dependents first, ties by id as shared_dependencies ranks them.
      const candidates = graph
        .filterNodes((node) => graph.inDegree(node) > 0)
        .sort((a, b) => graph.inDegree(b) - graph.inDegree(a) || byIdDescending(a, b))
        .slice(0, CANDIDATES_PER_ROW * args.top);
      const rows = candidates.flatMap((id) => {
        const links = walkDependencies(graph, id, 'down', WALK_DEPTH, ctx.signal);
        const asset = dataset.indexes.assetById(id);
        if (!asset || links.length === 0) return [];
        const accounts = new Set<string>();
        let exposed = 0;
        for (const link of links) {
          const dependent = dataset.indexes.assetById(link.asset_id);
          if (dependent?.account_id) accounts.add(dependent.account_id);
          if (dependent?.is_internet_exposed) exposed += 1;
        }
        return [
          {
            ...assetDescriptor(asset),
            transitive_dependents: links.length,
            accounts_affected: accounts.size,
            internet_exposed_dependents: exposed,
          },
        ];
      });
      rows.sort((a, b) => b.transitive_dependents - a.transitive_dependents || byIdDescending(a.id, b.id));
      const items = rows.slice(0, args.top);
      return { dataset: dataset.name, items, returned: items.length };
    },
  });
}
