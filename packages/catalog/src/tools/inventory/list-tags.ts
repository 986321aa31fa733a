import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/** Values shown per key when no `key` is given. */
const VALUES_PER_KEY = 5;

/** `list_tags`: tag keys with asset counts and their most common values. */
export function registerListTags(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_tags',
    title: 'List tags',
    description:
      'Tag keys with the number of assets carrying each, the number of distinct values and the most common values (5 per key, or up to top for one key). Feed the result into find_assets(tag="key=value").',
    category: 'inventory',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      key: z.string().default('').describe('Only this tag key (shows its values).'),
      top: z
        .number()
        .int()
        .min(1)
        .max(200)
        .default(30)
        .describe('Maximum number of tag keys returned. With key, also the number of values shown.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const key = args.key.trim();
      const byTag = dataset.indexes.byTag;
      const keys = key ? (byTag.has(key) ? [key] : []) : [...byTag.keys()];
      const perKey = key ? args.top : VALUES_PER_KEY;
      const all = keys.map((k) => {
        const values = [...(byTag.get(k) ?? new Map()).entries()].map(
          ([v, assets]) => [v, assets.length] as const,
        );
        // Stable sort: equal counts keep first-seen order.
        values.sort((a, b) => b[1] - a[1]);
        return {
          key: k,
          assets: values.reduce((n, [, c]) => n + c, 0),
          distinct_values: values.length,
          top_values: Object.fromEntries(values.slice(0, perKey)),
        };
      });
      all.sort((a, b) => b.assets - a.assets);
      const items = all.slice(0, args.top);
      return {
        dataset: dataset.name,
        total: all.length,
        returned: items.length,
        truncated: all.length > items.length,
        items,
      };
    },
  });
}
