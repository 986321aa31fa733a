import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { dependencyGraph } from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { dependentCounter } from './dependent-counts.js';
import { assetDescriptor, byIdDescending } from './descriptors.js';

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
      const direct: [string, number][] = [];
      graph.forEachNode((node) => {
        const degree = graph.inDegree(node);
        if (degree > 0) direct.push([node, degree]);
      });
      const candidates = direct
        .sort((a, b) => b[1] - a[1] || byIdDescending(a[0], b[0]))
        .slice(0, CANDIDATES_PER_ROW * args.top)
        .map(([id]) => id);
      const count = dependentCounter(dataset, ctx.signal);
      const rows = candidates.flatMap((id) => {
        const asset = dataset.indexes.assetById(id);
        const counted = count(id, WALK_DEPTH);
        if (!asset || counted.transitive_dependents === 0) return [];
        return [{ ...assetDescriptor(asset), ...counted }];
      });
      rows.sort((a, b) => b.transitive_dependents - a.transitive_dependents || byIdDescending(a.id, b.id));
      const items = rows.slice(0, args.top);
      return { dataset: dataset.name, items, returned: items.length };
    },
  });
}
