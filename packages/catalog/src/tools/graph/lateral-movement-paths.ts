import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { CROWN_JEWEL_WEIGHTS } from '../../conventions/risk.js';
import type { Dataset } from '../../dataset/dataset.js';
import {
  AbortCheck,
  bfsTree,
  type FoundPath,
  forward,
  identityGraph,
  pathTo,
  resolveGraphRef,
} from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { pathBrief } from './briefs.js';
import { lateralMovementOutput } from './output-schemas.js';

/** Footholds: every internet-exposed asset, then every account marked external. */
function defaultStarts(dataset: Dataset): string[] {
  const out: string[] = [];
  for (const a of dataset.assets) if (a.is_internet_exposed) out.push(a.id);
  for (const a of dataset.assets) {
    if (a.asset_type === 'CLOUD_ACCOUNT' && a.metadata.external === true && !a.is_internet_exposed)
      out.push(a.id);
  }
  return out;
}

function weightOf(dataset: Dataset, id: string): number {
  const asset = dataset.indexes.assetById(id);
  return asset ? (CROWN_JEWEL_WEIGHTS[asset.asset_type] ?? 0) : 0;
}

/** `lateral_movement_paths`: identity pivot chains from footholds. */
export function registerLateralMovementPaths(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'lateral_movement_paths',
    title: 'Lateral movement paths',
    description:
      'Identity pivot chains over ASSUMES_ROLE, IAM_TRUST and GRANTS_ACCESS edges only: from each start (start, else every internet-exposed asset and external account) the shortest chain to every node within max_depth hops that has no further identity edge, ranked by the highest crown-jewel weight on the chain, then by length.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: lateralMovementOutput,
    input: {
      start: z
        .string()
        .default('')
        .describe('Start from this asset; empty = every internet-exposed asset and external account.'),
      max_depth: z.number().int().min(1).max(8).default(4).describe('Longest identity chain, in hops.'),
      max_paths: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(25)
        .describe('Maximum chains returned after ranking.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      let starts: string[];
      if (args.start.trim()) {
        const ref = resolveGraphRef(dataset, args.start);
        starts = ref.kind === 'internet' ? [...ref.entryPoints] : [ref.id];
      } else starts = defaultStarts(dataset);
      const graph = identityGraph(dataset);
      const next = forward(graph, (e) => e.edge_type);
      const abort = new AbortCheck(ctx.signal, 16);
      // Rank first; briefs are built only for the chains shown.
      const chains: { path: FoundPath; weight: number; order: number }[] = [];
      for (const start of starts) {
        abort.tick();
        // Starts without an identity edge are counted but give no chain.
        if (!graph.hasNode(start) || graph.outDegree(start) === 0) continue;
        const tree = bfsTree(next, start, args.max_depth, ctx.signal);
        for (const node of tree.depth.keys()) {
          if (node === start || graph.outDegree(node) > 0) continue;
          const path = pathTo(tree, node);
          if (path === null) continue;
          const weight = Math.max(...path.nodes.map((id) => weightOf(dataset, id)));
          chains.push({ path, weight, order: chains.length });
        }
      }
      chains.sort(
        (a, b) => b.weight - a.weight || a.path.labels.length - b.path.labels.length || a.order - b.order,
      );
      return {
        dataset: dataset.name,
        paths: chains.slice(0, args.max_paths).map((c) => pathBrief(dataset, c.path)),
        total_found: chains.length,
        truncated: chains.length > args.max_paths,
        starting_points: new Set(starts).size,
      };
    },
  });
}
