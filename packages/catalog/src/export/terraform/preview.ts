import type { CloudAsset } from '../../model/asset.js';
import { terraformMapping } from './mapping.js';

export interface TerraformPreview {
  assets_considered: number;
  total_mapped: number;
  total_unmapped: number;
  /** Terraform type -> resources, in first-seen order. */
  resource_types: Record<string, number>;
  /** Asset type -> assets with no mapping, in first-seen order. */
  unmapped_asset_types: Record<string, number>;
}

/** What a Terraform recreation of `assets` would contain. */
export function terraformPreview(assets: readonly CloudAsset[]): TerraformPreview {
  const resourceTypes: Record<string, number> = {};
  const unmapped: Record<string, number> = {};
  let mapped = 0;
  for (const asset of assets) {
    const mapping = terraformMapping(asset);
    if (mapping) {
      mapped += 1;
      resourceTypes[mapping.type] = (resourceTypes[mapping.type] ?? 0) + 1;
    } else {
      unmapped[asset.asset_type] = (unmapped[asset.asset_type] ?? 0) + 1;
    }
  }
  return {
    assets_considered: assets.length,
    total_mapped: mapped,
    total_unmapped: assets.length - mapped,
    resource_types: resourceTypes,
    unmapped_asset_types: unmapped,
  };
}
