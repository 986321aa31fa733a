import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { assetUri } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveAssetRef } from '../../conventions/references.js';
import type { Workspace } from '../../workspace/workspace.js';
import { assetRefArg, datasetArg } from '../workspace/args.js';
import { assetBriefWithTags, assetService, metadataKeys, openFindingBriefs } from './asset-detail.js';
import { getAssetOutput } from './output-schemas.js';
import { degreeOf, directDependencies, relationsOf } from './relations.js';

/** Open findings `get_asset` lists at most. */
export const GET_ASSET_MAX_FINDINGS = 25;

/** `get_asset`: one asset with relations, dependency counts and open findings. */
export function registerGetAsset(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'get_asset',
    title: 'Get asset',
    description:
      'One asset in detail: brief and tags, cloud service, relation counts by edge type with a sample of edges, direct dependency counts, degree, open findings (highest risk first) and its metadata keys.',
    category: 'inventory',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: getAssetOutput,
    input: {
      ref: assetRefArg(),
      include_findings: z
        .boolean()
        .default(true)
        .describe('Include up to 25 open findings, highest risk first.'),
      max_relations: z
        .number()
        .int()
        .min(0)
        .max(200)
        .default(20)
        .describe(
          'How many edges to list in relations.sample (0 lists none; the counts are always complete).',
        ),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const asset = resolveAssetRef(dataset, args.ref);
      const result: Record<string, unknown> = {
        ...assetBriefWithTags(dataset, asset),
        dataset: dataset.name,
        service: assetService(asset),
        relations: relationsOf(dataset, asset.id, args.max_relations),
        dependencies: directDependencies(dataset, asset.id),
        degree: degreeOf(dataset, asset.id),
      };
      if (args.include_findings) result.findings = openFindingBriefs(dataset, asset, GET_ASSET_MAX_FINDINGS);
      result.metadata_keys = metadataKeys(asset);
      result.collected_at = asset.collected_at;
      const uri = assetUri(asset.id);
      ctx.link(uri, asset.name, { title: `${asset.asset_type} ${asset.name}`, mimeType: 'application/json' });
      ctx.link(`${uri}/neighbors`, `${asset.name} neighbors`, { mimeType: 'application/json' });
      return result;
    },
  });
}
