import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/** `list_regions`: regions on assets with providers, asset and account counts. */
export function registerListRegions(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_regions',
    title: 'List regions',
    description:
      'Regions found on assets with their providers, asset count and number of distinct accounts, most assets first, plus scanned_regions: the regions each provider was configured or scanned for.',
    category: 'inventory',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    input: { dataset: datasetArg() },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const items = [...dataset.indexes.byRegion.entries()].map(([region, assets]) => ({
        region,
        providers: [...new Set(assets.map((a) => a.provider))].sort(),
        assets: assets.length,
        accounts: new Set(assets.map((a) => a.account_id).filter((id) => id !== null)).size,
      }));
      items.sort((a, b) => b.assets - a.assets);
      return {
        dataset: dataset.name,
        total: items.length,
        items,
        scanned_regions: structuredClone(dataset.regions),
      };
    },
  });
}
