import { z } from 'zod';
import { resolveAssetRef } from '../../conventions/references.js';
import type { Dataset } from '../../dataset/dataset.js';
import { SUBDIR_PATTERN } from '../../export/write-files.js';
import type { CloudAsset } from '../../model/asset.js';
import { knownAssetTypes } from '../inventory/asset-filter.js';
import { parseVocabulary } from '../meta/parse-vocabulary.js';

/** `subdir` of every export: a sub-directory of the workspace output directory. */
export const subdirArg = (fallback: string) =>
  z
    .string()
    .regex(SUBDIR_PATTERN)
    .default(fallback)
    .describe("Sub-directory of the workspace output directory ('' = the directory itself).");

export const refsArg = () =>
  z.array(z.string()).nullable().default(null).describe('Only these assets (refs).');

export const assetTypesArg = () =>
  z.array(z.string()).nullable().default(null).describe('Only these AssetType values.');

/**
 * The assets a Terraform export covers: `refs` picks them (each resolved like any asset
 * reference, failing with its suggestions), `asset_types` filters (unknown types are refused
 * with the close matches); both may be combined, and neither means every asset. Dataset order,
 * each asset once.
 */
export function selectAssets(
  dataset: Dataset,
  refs: readonly string[] | null,
  assetTypes: readonly string[] | null,
): CloudAsset[] {
  let types: Set<string> | null = null;
  if (assetTypes?.length) {
    const valid = knownAssetTypes(dataset);
    types = new Set(assetTypes.map((t) => parseVocabulary('asset type', t, valid)));
  }
  let assets: readonly CloudAsset[] = dataset.assets;
  if (refs?.length) {
    const picked = new Set(refs.map((ref) => resolveAssetRef(dataset, ref).id));
    assets = dataset.assets.filter((a) => picked.has(a.id));
  }
  return types ? assets.filter((a) => types.has(a.asset_type)) : [...assets];
}
