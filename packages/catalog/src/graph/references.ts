import { resolveAssetRef } from '../conventions/references.js';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';
import { internetEntryPoints, isInternetAlias, NO_INTERNET_NODE } from './internet.js';

/**
 * What a graph tool's `ref`, `source`, `target` or `start` names: the internet (`internet`,
 * `public`, `0.0.0.0/0`, `::/0`), an asset (every form the inventory tools accept, with the same
 * suggestions on a miss), or another placeholder node by its id (a CIDR, an external principal).
 */
export type GraphRef =
  | { kind: 'internet'; entryPoints: readonly string[] }
  | { kind: 'asset'; id: string; asset: CloudAsset }
  | { kind: 'placeholder'; id: string };

function isEndpoint(dataset: Dataset, id: string): boolean {
  return dataset.indexes.outgoing(id).length > 0 || dataset.indexes.incoming(id).length > 0;
}

export function resolveGraphRef(dataset: Dataset, ref: string): GraphRef {
  const value = ref.trim();
  if (isInternetAlias(value)) {
    const entryPoints = internetEntryPoints(dataset);
    if (entryPoints.length === 0)
      throw new ReferenceNotFoundError(NO_INTERNET_NODE, { data: { value: ref } });
    return { kind: 'internet', entryPoints };
  }
  const byId = dataset.indexes.assetById(value);
  if (byId) return { kind: 'asset', id: byId.id, asset: byId };
  if (isEndpoint(dataset, value)) return { kind: 'placeholder', id: value };
  const asset = resolveAssetRef(dataset, ref);
  return { kind: 'asset', id: asset.id, asset };
}
