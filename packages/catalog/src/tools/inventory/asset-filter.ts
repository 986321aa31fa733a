import { parseEnum } from '../../conventions/enums.js';
import { severityFilter } from '../../conventions/severity.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import { PROVIDERS } from '../../model/vocabulary.js';
import { parseVocabulary } from '../meta/parse-vocabulary.js';
import { ASSET_TYPES } from '../meta/vocabulary/index.js';

/** The filters `find_assets` and `count_assets` share (count_assets uses the first five). */
export interface AssetFilterArgs {
  provider?: string;
  asset_types?: readonly string[] | null;
  region?: string;
  account_id?: string;
  internet_exposed?: boolean | null;
  query?: string;
  tag?: string;
  has_findings?: boolean | null;
  min_severity?: string;
}

/**
 * Asset types a filter accepts: every type of cloudg's vocabulary, then any other type present
 * in the dataset (asset types are open; a collector may add one).
 */
export function knownAssetTypes(dataset: Dataset): string[] {
  const known = new Set(ASSET_TYPES);
  return [...ASSET_TYPES, ...[...dataset.indexes.byType.keys()].filter((t) => !known.has(t))];
}

/**
 * Filter a dataset's assets. Every argument is parsed (and refused when unknown) before any
 * asset is looked at; the narrowest index (account, type, region, tag) gives the starting set,
 * so a filtered search does not scan the whole inventory. Results keep dataset order.
 */
export function filterAssets(dataset: Dataset, args: AssetFilterArgs): CloudAsset[] {
  const idx = dataset.indexes;
  const provider = args.provider?.trim() ? parseEnum('provider', args.provider, PROVIDERS) : null;
  let types: Set<string> | null = null;
  if (args.asset_types?.length) {
    const valid = knownAssetTypes(dataset);
    types = new Set(args.asset_types.map((t) => parseVocabulary('asset type', t, valid)));
  }
  const region = args.region?.trim().toLowerCase() || null;
  const account = args.account_id?.trim() || null;
  const query = args.query?.trim().toLowerCase() || null;
  const severity = severityFilter({ minSeverity: args.min_severity?.trim() || null });
  let tagKey: string | null = null;
  let tagValue: string | undefined;
  if (args.tag?.trim()) {
    const raw = args.tag.trim();
    const eq = raw.indexOf('=');
    tagKey = eq < 0 ? raw : raw.slice(0, eq).trim();
    tagValue = eq < 0 ? undefined : raw.slice(eq + 1).trim();
  }

  // Start from the smallest indexed candidate set.
  const candidates: (readonly CloudAsset[])[] = [];
  if (account !== null) candidates.push(idx.byAccount.get(account) ?? []);
  if (types !== null) {
    const lists = [...types].map((t) => idx.byType.get(t) ?? []);
    candidates.push(lists.length === 1 ? (lists[0] ?? []) : idx.inDatasetOrder(lists.flat()));
  }
  if (tagKey !== null) candidates.push(idx.assetsWithTag(tagKey, tagValue));
  if (provider !== null) candidates.push(idx.byProvider.get(provider) ?? []);
  let base: readonly CloudAsset[] = dataset.assets;
  for (const list of candidates) if (list.length < base.length) base = list;

  const text = query === null ? null : searchText(dataset);
  const out: CloudAsset[] = [];
  for (const a of base) {
    if (provider !== null && a.provider !== provider) continue;
    if (types !== null && !types.has(a.asset_type)) continue;
    if (region !== null && a.region.toLowerCase() !== region) continue;
    if (account !== null && a.account_id !== account) continue;
    if (args.internet_exposed != null && a.is_internet_exposed !== args.internet_exposed) continue;
    if (tagKey !== null) {
      if (!Object.hasOwn(a.tags, tagKey)) continue;
      if (tagValue !== undefined && a.tags[tagKey] !== tagValue) continue;
    }
    if (query !== null && !text?.get(a)?.includes(query)) continue;
    if (args.has_findings != null || severity !== null) {
      const stats = idx.findingStats(a.id);
      if (args.has_findings != null && stats.open > 0 !== args.has_findings) continue;
      if (severity !== null && (stats.maxSeverity === null || !severity(stats.maxSeverity))) continue;
    }
    out.push(a);
  }
  return out;
}

/**
 * Lower-cased name, ARN, id and tag values of every asset, joined by NUL so a match cannot span
 * two of them. Cached per dataset version: a text query scans one string per asset.
 */
function searchText(dataset: Dataset): Map<CloudAsset, string> {
  return dataset.derived('inventory:search-text', (d) => {
    const map = new Map<CloudAsset, string>();
    for (const a of d.assets) {
      map.set(a, [a.name, a.arn ?? '', a.id, ...Object.values(a.tags)].join('\u0000').toLowerCase());
    }
    return map;
  });
}
