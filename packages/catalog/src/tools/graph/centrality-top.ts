import type { Registry, ToolContext } from '@cloudg/core';
// The sub-module entry: its named exports load under Node's ESM-from-CommonJS interop and type as
// functions, where the per-metric files' `module.exports = fn` would not.
import {
  betweenness as betweennessCentrality,
  degree as degreeCentrality,
  inDegree as inDegreeCentrality,
  outDegree as outDegreeCentrality,
} from 'graphology-metrics/centrality/index.js';
import { z } from 'zod';
import { assetBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import {
  type RelationshipGraph,
  relationshipGraph,
  sampledBetweenness,
  sampleNodes,
} from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { parseAssetTypes } from './args.js';

const METRICS = ['degree', 'in_degree', 'out_degree', 'betweenness'] as const;
type Metric = (typeof METRICS)[number];

/** Above this many nodes betweenness starts from a sample of sources (the reference's k and seed). */
const EXACT_BETWEENNESS_NODES = 1500;
const SAMPLE_SOURCES = 300;
const SAMPLE_SEED = 7;

interface Scores {
  scores: ReadonlyMap<string, number>;
  sampled: boolean;
  /** Asset nodes, highest score first, ties in graph order (assets in dataset order). */
  ranked: readonly string[];
}

function asMap(record: Record<string, number>): Map<string, number> {
  return new Map(Object.entries(record));
}

async function compute(
  graph: RelationshipGraph,
  metric: Metric,
  ctx: ToolContext<Workspace>,
): Promise<Omit<Scores, 'ranked'>> {
  if (metric === 'degree') return { scores: asMap(degreeCentrality(graph)), sampled: false };
  if (metric === 'in_degree') return { scores: asMap(inDegreeCentrality(graph)), sampled: false };
  if (metric === 'out_degree') return { scores: asMap(outDegreeCentrality(graph)), sampled: false };
  if (graph.order <= EXACT_BETWEENNESS_NODES) {
    // Exact and quick at this size: graphology-metrics, every node a source, unweighted.
    const scores = betweennessCentrality(graph, { getEdgeWeight: null, normalized: true });
    return { scores: asMap(scores), sampled: false };
  }
  const sources = sampleNodes(graph.nodes(), SAMPLE_SOURCES, SAMPLE_SEED);
  const scores = await sampledBetweenness(graph, {
    sources,
    signal: ctx.signal,
    onProgress: (done, total) =>
      ctx.reportProgress(done, total, 'betweenness: shortest paths from sampled sources'),
  });
  return { scores, sampled: true };
}

/** Scores per metric, kept on the dataset (its `centrality` cache) until the dataset changes. */
async function cachedScores(dataset: Dataset, metric: Metric, ctx: ToolContext<Workspace>): Promise<Scores> {
  const cache = () => dataset.derived('centrality', () => new Map<Metric, Scores>());
  const hit = dataset.isCached('centrality') ? cache().get(metric) : undefined;
  if (hit) return hit;
  const version = dataset.version;
  const graph = relationshipGraph(dataset, ctx.signal);
  const computed = await compute(graph, metric, ctx);
  const score = (id: string) => computed.scores.get(id) ?? 0;
  // The stable sort keeps graph order among equal scores, as the reference's examples show.
  const ranked = graph
    .filterNodes((_node, attributes) => attributes.asset !== null)
    .sort((a, b) => score(b) - score(a));
  const scores: Scores = { ...computed, ranked };
  // Kept only when complete (an abort throws first) and still current (no touch() meanwhile), so
  // the dataset listing's `cached.centrality` means scores are really there.
  if (dataset.version === version) cache().set(metric, scores);
  return scores;
}

function round5(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}

/** `centrality_top`: most connected or most in-the-middle assets of the relationship graph. */
export function registerCentralityTop(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'centrality_top',
    title: 'Centrality top',
    description:
      'Most connected or most "in the middle" assets in the relationship graph. degree, in_degree and out_degree are degree centralities (degree / (nodes - 1)); betweenness marks chokepoints that many shortest paths cross, sampled from 300 sources (seed 7) above 1,500 nodes. Placeholder nodes take part but are not ranked. Items are asset briefs plus score (5 decimals) and degree; sampled says whether betweenness was sampled.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      metric: z
        .enum(METRICS)
        .default('degree')
        .describe('Centrality measure. Betweenness is sampled (k=300, seed 7) above 1,500 nodes.'),
      top: z.number().int().min(1).max(200).default(20).describe('Number of assets returned.'),
      asset_types: z.array(z.string()).nullable().default(null).describe('Only rank these AssetType values.'),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const types = parseAssetTypes(dataset, args.asset_types);
      const graph = relationshipGraph(dataset, ctx.signal);
      const { scores, sampled, ranked: order } = await cachedScores(dataset, args.metric, ctx);
      const ranked: string[] = [];
      for (const id of order) {
        if (ranked.length >= args.top) break;
        const type = dataset.indexes.assetById(id)?.asset_type;
        if (types === null || (type !== undefined && types.has(type))) ranked.push(id);
      }
      const items = ranked.flatMap((id) => {
        const asset = dataset.indexes.assetById(id);
        if (!asset) return [];
        return [
          { ...assetBrief(dataset, asset), score: round5(scores.get(id) ?? 0), degree: graph.degree(id) },
        ];
      });
      return { dataset: dataset.name, metric: args.metric, sampled, items };
    },
  });
}
