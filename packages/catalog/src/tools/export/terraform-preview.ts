import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { terraformPreview } from '../../export/terraform/preview.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { assetTypesArg, refsArg, selectAssets } from './args.js';

/** `terraform_preview`: what export_terraform would write, without writing. */
export function registerTerraformPreview(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'terraform_preview',
    title: 'Terraform preview',
    description:
      'What a Terraform recreation of the assets would contain, without writing anything: assets_considered, total_mapped, total_unmapped, resource_types (Terraform type to count) and unmapped_asset_types (asset types with no Terraform mapping). refs picks assets explicitly; asset_types filters (both may be combined).',
    category: 'export',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    input: {
      refs: refsArg(),
      asset_types: assetTypesArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const assets = selectAssets(dataset, args.refs, args.asset_types);
      return { dataset: dataset.name, ...terraformPreview(assets) };
    },
  });
}
