import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { assetBrief, findingBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveAssetRef } from '../../conventions/references.js';
import { sortFindings } from '../../conventions/sorting.js';
import type { Workspace } from '../../workspace/workspace.js';
import { assetRefArg, datasetArg, limitArg } from '../workspace/args.js';
import { findingsForAssetOutput } from './output-schemas.js';

/** `findings_for_asset`: every finding on one asset, highest risk first, without a cursor. */
export function registerFindingsForAsset(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'findings_for_asset',
    title: 'Findings for asset',
    description:
      'Every finding matched to one asset, highest risk first, as briefs, with the asset brief. Returns the first limit items with total and truncated (no cursor). Suppressed findings only with include_suppressed.',
    category: 'findings',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: findingsForAssetOutput,
    input: {
      ref: assetRefArg(),
      include_suppressed: z.boolean().default(false).describe('Also return suppressed findings.'),
      limit: limitArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const asset = resolveAssetRef(dataset, args.ref);
      const all = dataset.indexes.findingsOf(asset.id);
      const kept = args.include_suppressed ? all : all.filter((f) => !f.is_suppressed);
      const items = sortFindings(kept, 'risk').slice(0, args.limit);
      return {
        dataset: dataset.name,
        asset: assetBrief(dataset, asset),
        total: kept.length,
        returned: items.length,
        truncated: kept.length > items.length,
        items: items.map((f) => findingBrief(dataset, f)),
      };
    },
  });
}
