import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/** `list_asset_types`: the types present in a dataset, most common first. */
export function registerListAssetTypes(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_asset_types',
    title: 'List asset types',
    description:
      'The asset types present in the dataset with count, internet_exposed and open_findings per type, most common first. Pass these values to asset_types filters.',
    category: 'inventory',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    input: { dataset: datasetArg() },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const idx = dataset.indexes;
      const items = [...idx.byType.entries()].map(([type, assets]) => {
        let exposed = 0;
        let open = 0;
        for (const a of assets) {
          if (a.is_internet_exposed) exposed += 1;
          open += idx.findingStats(a.id).open;
        }
        return { type, count: assets.length, internet_exposed: exposed, open_findings: open };
      });
      // Stable: equal counts keep the order in which the types first appear.
      items.sort((a, b) => b.count - a.count);
      return { dataset: dataset.name, total_types: items.length, items };
    },
  });
}
