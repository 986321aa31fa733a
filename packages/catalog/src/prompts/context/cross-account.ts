import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import { HIERARCHY_ASSET_TYPES } from '../../model/vocabulary.js';

export interface CrossAccountOverview {
  cross_account_edges: number;
  external: number;
  /** `"<source account> -> <target account> (<edge type>)"` -> edge count, in edge order. */
  by_account_pair: Record<string, number>;
}

/** Accounts outside the mapped estate: account assets the collector flagged as external. */
function externalAccounts(dataset: Dataset): Set<string> {
  const out = new Set<string>();
  for (const a of dataset.assets) {
    if (a.asset_type === 'CLOUD_ACCOUNT' && a.account_id && a.metadata.external === true)
      out.add(a.account_id);
  }
  return out;
}

function isExternal(asset: CloudAsset, external: Set<string>): boolean {
  return asset.metadata.external === true || (asset.account_id !== null && external.has(asset.account_id));
}

/**
 * Edges whose two ends are assets in different, known accounts (containment between hierarchy
 * assets excepted: an OU holding an account is not a crossing), counted per account pair and
 * edge type, and how many touch an account outside the mapped estate.
 */
export function crossAccountOverview(dataset: Dataset): CrossAccountOverview {
  const idx = dataset.indexes;
  const external = externalAccounts(dataset);
  const pairs: Record<string, number> = {};
  let total = 0;
  let externalCount = 0;
  for (const e of dataset.edges) {
    const s = idx.assetById(e.source_id);
    const t = idx.assetById(e.target_id);
    if (!s?.account_id || !t?.account_id || s.account_id === t.account_id) continue;
    if (
      e.edge_type === 'CONTAINS' &&
      HIERARCHY_ASSET_TYPES.has(s.asset_type) &&
      HIERARCHY_ASSET_TYPES.has(t.asset_type)
    )
      continue;
    total += 1;
    if (isExternal(s, external) || isExternal(t, external)) externalCount += 1;
    const key = `${s.account_id} -> ${t.account_id} (${e.edge_type})`;
    pairs[key] = (pairs[key] ?? 0) + 1;
  }
  return { cross_account_edges: total, external: externalCount, by_account_pair: pairs };
}
