import { InvalidArgumentsError, type Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import {
  type CompactGraph,
  compactFlow,
  compactRelationship,
  type GraphRef,
  INTERNET_NODE,
  kShortestPaths,
  resolveGraphRef,
  withSource,
} from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { nodeBrief, pathBrief, withoutVirtualStart } from './briefs.js';
import { findPathsOutput } from './output-schemas.js';

export const PATH_MODES = ['flow', 'directed', 'undirected'] as const;
export type PathMode = (typeof PATH_MODES)[number];

/** The view a mode walks. */
export function modeGraph(dataset: Dataset, mode: PathMode, signal?: AbortSignal): CompactGraph {
  if (mode === 'flow') return compactFlow(dataset, signal);
  return compactRelationship(dataset, mode === 'undirected', signal);
}

function nodeOf(ref: GraphRef): string {
  return ref.kind === 'internet' ? INTERNET_NODE : ref.id;
}

/** `find_paths`: shortest simple paths between two assets in one of three modes. */
export function registerFindPaths(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'find_paths',
    title: 'Find paths',
    description:
      "Shortest simple paths from source to target, shortest first, up to max_paths paths of at most max_depth hops. Each path lists its hops, one edge type per hop (SG_ADMITS where a security group admits traffic to what is attached to it) and a summary. source may be 'internet'.",
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: findPathsOutput,
    input: {
      source: z.string().min(1).describe("Start asset ref, or 'internet'."),
      target: z.string().min(1).describe('End asset ref.'),
      max_depth: z.number().int().min(1).max(12).default(6).describe('Longest path (in hops) to return.'),
      max_paths: z
        .number()
        .int()
        .min(1)
        .max(50)
        .default(5)
        .describe('Maximum number of paths, shortest first.'),
      mode: z
        .enum(PATH_MODES)
        .default('flow')
        .describe(
          'flow: network-flow hops (as the reachability analysis walks them: security groups admit traffic to attached resources) plus identity pivots (ASSUMES_ROLE, IAM_TRUST, GRANTS_ACCESS); directed: edges as collected; undirected: any connection.',
        ),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const source = resolveGraphRef(dataset, args.source);
      const target = resolveGraphRef(dataset, args.target);
      // Nothing leads into the internet in any view; say so instead of returning no path.
      if (target.kind === 'internet')
        throw new InvalidArgumentsError(
          "target cannot be the internet: paths start there. Pass source='internet' and an asset as target.",
          { data: { value: args.target } },
        );
      let graph = modeGraph(dataset, args.mode, ctx.signal);
      // From the internet the walk starts at a virtual node linked to every entry point; the
      // virtual hop is not counted in max_depth and not shown in the paths.
      const virtual = source.kind === 'internet';
      if (source.kind === 'internet') graph = withSource(graph, INTERNET_NODE, source.entryPoints);
      const extra = virtual ? 1 : 0;
      const found = kShortestPaths(graph, nodeOf(source), nodeOf(target), {
        maxHops: args.max_depth + extra,
        // One more than asked, to know whether more exist within max_depth.
        limit: args.max_paths + 1,
        signal: ctx.signal,
      }).map((p) => (virtual ? withoutVirtualStart(p) : p));
      const shown = found.slice(0, args.max_paths);
      const result: Record<string, unknown> = {
        dataset: dataset.name,
        source: nodeBrief(dataset, nodeOf(source)),
        target: nodeBrief(dataset, nodeOf(target)),
        mode: args.mode,
        paths: shown.map((p) => pathBrief(dataset, p)),
        total_found: shown.length,
        truncated: found.length > args.max_paths,
      };
      if (shown.length === 0)
        result.hint = `No path within ${args.max_depth} hops in '${args.mode}' mode. Try mode='undirected' or a larger max_depth, or check neighbors() of each end.`;
      return result;
    },
  });
}
