import { sortAssets } from '../../conventions/sorting.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';

const KEY = 'inventory:name-order';
/** Below this many matches a direct sort is cheaper than building the dataset-wide order. */
const DIRECT_SORT_LIMIT = 2000;

interface NameOrder {
  sorted: CloudAsset[];
  rank: Map<CloudAsset, number>;
}

/**
 * Assets in `find_assets`' default order (name, case-insensitive, then id). Large result sets
 * reuse one dataset-wide order, cached until the dataset changes, so paging through a big
 * inventory does not re-sort it with string comparisons on every page.
 */
export function sortByName(dataset: Dataset, matched: CloudAsset[], descending: boolean): CloudAsset[] {
  if (matched.length <= DIRECT_SORT_LIMIT && !dataset.isCached(KEY)) {
    return sortAssets(dataset, matched, 'name', descending);
  }
  const order = dataset.derived<NameOrder>(KEY, (d) => {
    const sorted = sortAssets(d, d.assets, 'name');
    return { sorted, rank: new Map(sorted.map((a, i) => [a, i])) };
  });
  let out: CloudAsset[];
  if (matched.length === dataset.assets.length) out = [...order.sorted];
  else {
    const { rank } = order;
    out = matched.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  }
  return descending ? out.reverse() : out;
}
