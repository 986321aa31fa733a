import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { assetService } from './asset-detail.js';
import { filterAssets } from './asset-filter.js';
import { countAssetsOutput } from './output-schemas.js';

export const COUNT_GROUPS = [
  'type',
  'provider',
  'region',
  'account',
  'service',
  'exposure',
  'severity',
] as const;
export type CountGroup = (typeof COUNT_GROUPS)[number];

function groupKey(dataset: Dataset, group: CountGroup): (a: CloudAsset) => string {
  switch (group) {
    case 'type':
      return (a) => a.asset_type;
    case 'provider':
      return (a) => a.provider;
    case 'region':
      return (a) => a.region;
    case 'account':
      return (a) => a.account_id ?? 'unknown';
    case 'service':
      return assetService;
    case 'exposure':
      return (a) => (a.is_internet_exposed ? 'internet_exposed' : 'internal');
    case 'severity':
      return (a) => dataset.indexes.findingStats(a.id).maxSeverity ?? 'NONE';
  }
}

/** Counts as an object, largest group first, ties by key. */
export function largestFirst(counts: Map<string, number>, top: number): Record<string, number> {
  const sorted = [...counts.entries()].sort(
    (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
  );
  return Object.fromEntries(sorted.slice(0, top));
}

/** `count_assets`: asset counts grouped by one dimension. */
export function registerCountAssets(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'count_assets',
    title: 'Count assets',
    description:
      'Count assets grouped by type, provider, region, account, service, exposure or worst open severity, with the filters of find_assets minus text, tag and finding filters. Returns only group keys and counts.',
    category: 'inventory',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    outputSchema: countAssetsOutput,
    input: {
      group_by: z
        .enum(COUNT_GROUPS)
        .default('type')
        .describe(
          'Grouping dimension. service is the cloud service parsed from the ARN or type, exposure is internet_exposed / internal, severity is the worst open finding (NONE when there is none).',
        ),
      provider: z.string().default('').describe('aws, azure or gcp (case-insensitive).'),
      asset_types: z.array(z.string()).nullable().default(null).describe('AssetType values to count.'),
      region: z.string().default('').describe('Exact region (case-insensitive).'),
      account_id: z.string().default('').describe('Exact account / subscription / project id.'),
      internet_exposed: z
        .boolean()
        .nullable()
        .default(null)
        .describe('Only exposed (true) or only not exposed (false).'),
      top: z
        .number()
        .int()
        .min(1)
        .max(500)
        .default(50)
        .describe('Maximum number of groups returned (largest first).'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const assets = filterAssets(dataset, args);
      const key = groupKey(dataset, args.group_by);
      const counts = new Map<string, number>();
      for (const a of assets) {
        const k = key(a);
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      return {
        dataset: dataset.name,
        group_by: args.group_by,
        total: assets.length,
        group_count: counts.size,
        groups: largestFirst(counts, args.top),
        truncated: counts.size > args.top,
      };
    },
  });
}
