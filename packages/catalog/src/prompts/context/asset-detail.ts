import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import { assetBriefWithTags, metadataKeys, openFindingBriefs } from '../../tools/inventory/asset-detail.js';
import { countByEdgeType, directDependencies } from '../../tools/inventory/relations.js';

/** Open findings the asset view lists at most, as the asset resource does. */
const MAX_FINDINGS = 10;

/**
 * The asset view `cloudg://assets/{+ref}` serves, for a dataset that is not the active one
 * (resources only read the active dataset, so the prompt carries it in its JSON context).
 */
export function assetDetail(dataset: Dataset, asset: CloudAsset): Record<string, unknown> {
  const idx = dataset.indexes;
  return {
    ...assetBriefWithTags(dataset, asset),
    relations: {
      outgoing: countByEdgeType(idx.outgoing(asset.id)),
      incoming: countByEdgeType(idx.incoming(asset.id)),
    },
    findings: openFindingBriefs(dataset, asset, MAX_FINDINGS),
    metadata_keys: metadataKeys(asset),
    dependencies: directDependencies(dataset, asset.id),
  };
}
