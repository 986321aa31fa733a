import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { assetBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import { ASSET_FIELDS, checkFields, project } from '../../conventions/projection.js';
import { ASSET_SORTS, sortAssets } from '../../conventions/sorting.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';
import { filterAssets } from './asset-filter.js';
import { sortByName } from './name-order.js';
import { findAssetsOutput } from './output-schemas.js';

export const NO_ASSETS_HINT =
  'No assets matched. Loosen the filters, or use list_asset_types / list_accounts / list_regions to see valid values.';

/** `find_assets`: filtered, sorted, paginated asset search returning briefs. */
export function registerFindAssets(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'find_assets',
    title: 'Find assets',
    description:
      "Search assets with any combination of filters (text, provider, types, region, account, tag, exposure, findings), sort, and page through the result. Items are asset briefs; read an item's uri or call get_asset for detail.",
    category: 'inventory',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    tags: ['start-here'],
    outputSchema: findAssetsOutput,
    input: {
      query: z.string().default('').describe('Case-insensitive substring of name, ARN, id or a tag value.'),
      provider: z.string().default('').describe('aws, azure or gcp.'),
      asset_types: z
        .array(z.string())
        .nullable()
        .default(null)
        .describe("AssetType values, e.g. ['EC2','S3_BUCKET'] (describe_schema)."),
      region: z.string().default('').describe('Exact region, e.g. us-east-1.'),
      account_id: z.string().default('').describe('Exact account / subscription / project.'),
      tag: z.string().default('').describe("Tag filter: 'key' or 'key=value'."),
      internet_exposed: z
        .boolean()
        .nullable()
        .default(null)
        .describe('Only exposed (true) / not exposed (false).'),
      has_findings: z
        .boolean()
        .nullable()
        .default(null)
        .describe('Only assets with (true) / without (false) open findings.'),
      min_severity: z
        .string()
        .default('')
        .describe('Only assets with an open finding at or above this severity.'),
      sort_by: z.enum(ASSET_SORTS).default('name').describe("'risk' ranks by worst finding + exposure."),
      descending: z
        .boolean()
        .default(false)
        .describe(
          'Reverse the order. For risk and findings the default is already highest first, so true puts the lowest first.',
        ),
      fields: z
        .array(z.string())
        .nullable()
        .default(null)
        .describe(`Project each item to these fields. Valid: ${ASSET_FIELDS.join(', ')}`),
      limit: limitArg(),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      // Arguments that can be refused are checked before any work is done.
      const fields = checkFields(args.fields, ASSET_FIELDS);
      const dataset = resolveDataset(ctx.app, args.dataset);
      const matched = filterAssets(dataset, args);
      const sorted =
        args.sort_by === 'name'
          ? sortByName(dataset, matched, args.descending)
          : sortAssets(dataset, matched, args.sort_by, args.descending);
      const { limit, cursor, dataset: _name, ...query } = args;
      const page = paginate(sorted, { dataset, query, limit, cursor });
      const withTags = fields?.includes('tags') ?? false;
      // A brief is a fresh object, so projecting it needs no copy.
      const items = page.items.map((a) =>
        project(assetBrief(dataset, a, { tags: withTags }) as unknown as Record<string, unknown>, fields),
      );
      const result: Record<string, unknown> = { dataset: dataset.name, ...page, items };
      if (page.total === 0 && dataset.assets.length > 0) result.hint = NO_ASSETS_HINT;
      return result;
    },
  });
}
