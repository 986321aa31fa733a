import { assetBrief, findingBrief } from '../../conventions/briefs.js';
import { sortFindings } from '../../conventions/sorting.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import { serviceOf } from '../../model/inventory-summary.js';

/** Shared pieces of `get_asset` and the `cloudg://assets/{+ref}` resource. */

/** Open findings of an asset, highest risk first, as briefs. */
export function openFindingBriefs(dataset: Dataset, asset: CloudAsset, max = Number.POSITIVE_INFINITY) {
  const open = dataset.indexes.findingsOf(asset.id).filter((f) => !f.is_suppressed);
  return sortFindings(open, 'risk')
    .slice(0, max)
    .map((f) => findingBrief(dataset, f));
}

/** Metadata keys, sorted, at most `max`. */
export function metadataKeys(asset: CloudAsset, max = 100): string[] {
  return Object.keys(asset.metadata).sort().slice(0, max);
}

/**
 * The cloud service of an asset: parsed from its ARN or resource id, else the service its
 * type's name starts with (`LAMBDA_FUNCTION` -> `lambda`).
 */
export function assetService(asset: CloudAsset): string {
  const fromId = serviceOf(asset.arn);
  if (fromId !== 'unknown') return fromId;
  const head = asset.asset_type.split('_')[0];
  return head ? head.toLowerCase() : 'unknown';
}

/** The brief with tags, the form every single-asset view starts from. */
export function assetBriefWithTags(dataset: Dataset, asset: CloudAsset) {
  return assetBrief(dataset, asset, { tags: true });
}
