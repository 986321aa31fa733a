import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveAssetRef } from '../../conventions/references.js';
import type { Workspace } from '../../workspace/workspace.js';
import { assetRefArg, datasetArg } from '../workspace/args.js';

/** How many of the largest keys a truncated result lists in `key_sizes`. */
const KEY_SIZES_SHOWN = 50;

/** Serialised size of one `"key": value` entry. */
function entrySize(key: string, value: unknown): number {
  return JSON.stringify(key).length + 2 + (JSON.stringify(value) ?? 'null').length;
}

/**
 * Keep metadata entries in stored order while they fit the budget; an entry that would cross it
 * is left out (later, smaller ones may still fit).
 */
export function budgetMetadata(
  entries: [string, unknown][],
  maxChars: number,
): { metadata: Record<string, unknown>; truncated: boolean; sizes: [string, number][] } {
  const metadata: Record<string, unknown> = {};
  const sizes: [string, number][] = [];
  let used = 2; // the braces
  let truncated = false;
  for (const [key, value] of entries) {
    const size = entrySize(key, value);
    sizes.push([key, size]);
    const cost = size + (Object.keys(metadata).length > 0 ? 2 : 0);
    if (used + cost > maxChars) {
      truncated = true;
      continue;
    }
    metadata[key] = value;
    used += cost;
  }
  return { metadata, truncated, sizes };
}

/** `get_asset_metadata`: the raw collector metadata of one asset (restricted). */
export function registerGetAssetMetadata(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'get_asset_metadata',
    title: 'Get asset metadata',
    description:
      'The raw metadata the collector stored for an asset: configuration, policy documents, rules, declared relations. It can hold secrets, hence restricted. Ask for specific keys (see get_asset.metadata_keys) to stay within max_chars.',
    category: 'inventory',
    sensitivity: 'restricted',
    capabilities: ['read_state'],
    input: {
      ref: assetRefArg(),
      keys: z
        .array(z.string())
        .nullable()
        .default(null)
        .describe('Only these metadata keys (see get_asset.metadata_keys).'),
      max_chars: z
        .number()
        .int()
        .min(1000)
        .max(200_000)
        .default(40_000)
        .describe(
          'Size budget for the serialised metadata. Over budget, keys that would cross it are left out and truncated is true.',
        ),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const asset = resolveAssetRef(dataset, args.ref);
      const stored = asset.metadata;
      let entries: [string, unknown][];
      let missing: string[] = [];
      if (args.keys?.length) {
        const wanted = [...new Set(args.keys)];
        entries = Object.entries(stored).filter(([k]) => wanted.includes(k));
        missing = wanted.filter((k) => !Object.hasOwn(stored, k));
      } else {
        entries = Object.entries(stored);
      }
      const { metadata, truncated, sizes } = budgetMetadata(entries, args.max_chars);
      const result: Record<string, unknown> = {
        id: asset.id,
        name: asset.name,
        type: asset.asset_type,
        truncated,
        metadata,
      };
      if (missing.length) result.missing_keys = missing;
      if (truncated) {
        result.key_sizes = Object.fromEntries(
          [...sizes].sort((a, b) => b[1] - a[1]).slice(0, KEY_SIZES_SHOWN),
        );
        result.hint =
          'The metadata is larger than max_chars. Ask for specific keys (keys=[...]) or raise max_chars (up to 200000).';
      }
      return result;
    },
  });
}
