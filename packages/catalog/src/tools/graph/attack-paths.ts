import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveAssetRef } from '../../conventions/references.js';
import { attackPathScore, CROWN_JEWEL_WEIGHTS, EXPLICIT_TARGET_WEIGHT } from '../../conventions/risk.js';
import type { Dataset } from '../../dataset/dataset.js';
import {
  compactBfs,
  compactFlow,
  compactPathTo,
  type FoundPath,
  INTERNET_NODE,
  internetEntryPoints,
  withSource,
} from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { findingsOnPath, type PathBrief, pathBrief, withoutVirtualStart } from './briefs.js';
import { attackPathsOutput } from './output-schemas.js';

/** Targets above which the tool reports progress. */
const PROGRESS_TARGETS = 1000;

export const NOTHING_EXPOSED_HINT =
  'Nothing in this dataset is reachable from the internet: no internet-sourced rule, INTERNET_EXPOSED edge or asset flagged as exposed. Use internet_exposure to check the exposure flags.';

/** Where attack paths start: the internet entry points, then every asset flagged exposed. */
function entries(dataset: Dataset): string[] {
  const out = new Set(internetEntryPoints(dataset));
  for (const a of dataset.assets) if (a.is_internet_exposed) out.add(a.id);
  return [...out];
}

/** `attack_paths`: ranked shortest routes from the internet to crown-jewel assets. */
export function registerAttackPaths(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'attack_paths',
    title: 'Attack paths',
    description:
      'Shortest routes from the internet (every entry point and every internet-exposed asset) to sensitive assets over the flow graph, one per target, ranked by target weight, open findings on the path and length. Without target, every crown-jewel asset (databases, buckets, secrets, keys, roles) is a target.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: attackPathsOutput,
    input: {
      target: z
        .string()
        .default('')
        .describe(
          'Asset to reach; empty = every crown-jewel asset (databases, buckets, secrets, keys, roles).',
        ),
      max_depth: z
        .number()
        .int()
        .min(1)
        .max(12)
        .default(8)
        .describe('Longest path from the entry point, in hops.'),
      max_paths: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(20)
        .describe('Maximum paths returned after ranking.'),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const targets: [string, number][] = args.target.trim()
        ? [[resolveAssetRef(dataset, args.target).id, EXPLICIT_TARGET_WEIGHT]]
        : dataset.assets.flatMap((a): [string, number][] => {
            const weight = CROWN_JEWEL_WEIGHTS[a.asset_type];
            return weight === undefined ? [] : [[a.id, weight]];
          });
      const starts = entries(dataset);
      if (starts.length === 0) {
        return {
          dataset: dataset.name,
          paths: [],
          total_found: 0,
          truncated: false,
          targets_considered: targets.length,
          hint: NOTHING_EXPOSED_HINT,
        };
      }
      const report = targets.length > PROGRESS_TARGETS;
      if (report) await ctx.reportProgress(0, 2, `searching paths to ${targets.length} targets`);
      const graph = withSource(compactFlow(dataset, ctx.signal), INTERNET_NODE, starts);
      // One breadth-first search from the virtual entry serves every target (unweighted, so the
      // first discovery is a shortest path); the virtual hop does not count towards max_depth.
      const tree = compactBfs(graph, INTERNET_NODE, args.max_depth + 1, ctx.signal);
      if (report) await ctx.reportProgress(1, 2, 'ranking paths');
      // Score every reached target first; briefs are built only for the paths shown.
      const scored: { path: FoundPath; weight: number; findings: number; score: number; order: number }[] =
        [];
      targets.forEach(([id, weight], order) => {
        const found = compactPathTo(tree, id);
        if (found === null) return;
        const path = withoutVirtualStart(found);
        const findings = findingsOnPath(dataset, path);
        // The reference's "hops" count the virtual entry hop too, hence length + 1.
        const score = Math.round(attackPathScore(weight, findings, path.labels.length + 1) * 10) / 10;
        scored.push({ path, weight, findings, score, order });
      });
      scored.sort((a, b) => b.score - a.score || a.order - b.order);
      if (report) await ctx.reportProgress(2, 2, 'done');
      const result: Record<string, unknown> = {
        dataset: dataset.name,
        paths: scored.slice(0, args.max_paths).map((s): PathBrief => {
          const first = dataset.indexes.assetById(s.path.nodes[0] as string);
          return {
            ...pathBrief(dataset, s.path),
            entry: first?.is_internet_exposed ? 'internet-exposed asset' : 'internet-sourced rule',
            target_weight: s.weight,
            findings_on_path: s.findings,
            score: s.score,
          };
        }),
        total_found: scored.length,
        truncated: scored.length > args.max_paths,
        targets_considered: targets.length,
      };
      return result;
    },
  });
}
