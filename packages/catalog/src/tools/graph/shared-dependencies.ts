import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import { AbortCheck, dependencyArrowOf } from '../../graph/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { assetDescriptor, byIdDescending } from './descriptors.js';

/** Edge types whose arrows say where something sits rather than what it functionally needs. */
const NOT_FUNCTIONAL = new Set(['CONTAINS', 'PEERING']);

/**
 * Distinct direct functional dependents of every asset that has at least two, ranked (most first,
 * ties by id descending), cached on the dataset until it changes. Read from the raw edges rather than the
 * dependency graph, which keeps one arrow per pair and so could hide a REFERENCES arrow behind a
 * CONTAINS one on the same pair.
 */
function rankedDirectDependents(dataset: Dataset, signal?: AbortSignal): [string, number][] {
  return dataset.derived('dependency_graph.shared', (ds) =>
    [...directDependents(ds, signal)]
      .map(([id, dependents]): [string, number] => [id, dependents.size])
      .filter(([, count]) => count >= 2)
      .sort((a, b) => b[1] - a[1] || byIdDescending(a[0], b[0])),
  );
}

function directDependents(dataset: Dataset, signal?: AbortSignal): Map<string, Set<string>> {
  const abort = new AbortCheck(signal);
  const idx = dataset.indexes;
  const out = new Map<string, Set<string>>();
  for (const edge of dataset.edges) {
    abort.tick();
    if (NOT_FUNCTIONAL.has(edge.edge_type)) continue;
    const source = idx.assetById(edge.source_id);
    const target = idx.assetById(edge.target_id);
    if (!source || !target) continue;
    const arrow = dependencyArrowOf(edge, source, target, false);
    if (arrow === null || arrow[0] === arrow[1]) continue;
    const set = out.get(arrow[1]) ?? new Set<string>();
    set.add(arrow[0]);
    out.set(arrow[1], set);
  }
  return out;
}

/** `shared_dependencies`: single points of failure, by distinct direct dependents. */
export function registerSharedDependencies(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'shared_dependencies',
    title: 'Shared dependencies',
    description:
      'Single points of failure: the assets with the most distinct direct dependents (one KMS key behind many resources, one role behind every function), not counting containment or peering; only assets with at least two dependents are listed. Items have id, name, arn, type, account_id, region and direct_dependents.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      top: z.number().int().min(1).max(200).default(25).describe('Number of assets returned.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const ranked = rankedDirectDependents(dataset, ctx.signal).slice(0, args.top);
      const items = ranked.flatMap(([id, count]) => {
        const asset = dataset.indexes.assetById(id);
        return asset ? [{ ...assetDescriptor(asset), direct_dependents: count }] : [];
      });
      return { dataset: dataset.name, items, returned: items.length };
    },
  });
}
