import type { CloudAsset } from '../../model/asset.js';

/**
 * The asset descriptor of the dependency reports (INVENTORY_REFERENCE.md 12.2): the six keys
 * `dependency_tree`, `shared_dependencies` and `largest_blast_radius` put in front of their own.
 */
export interface AssetDescriptor {
  id: string;
  name: string;
  arn: string | null;
  type: string;
  account_id: string | null;
  region: string;
}

export function assetDescriptor(asset: CloudAsset): AssetDescriptor {
  return {
    id: asset.id,
    name: asset.name,
    arn: asset.arn,
    type: asset.asset_type,
    account_id: asset.account_id,
    region: asset.region,
  };
}

/**
 * The dependency reports' tie-break: id, descending. The reference ranks by the pair (count, id)
 * in reverse, which is how its documented sample shows `sg-app` before `ecr-repo` at two direct
 * dependents each.
 */
export function byIdDescending(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}
