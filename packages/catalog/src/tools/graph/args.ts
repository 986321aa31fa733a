import { z } from 'zod';
import type { Dataset } from '../../dataset/dataset.js';
import { EDGE_TYPES } from '../../model/vocabulary.js';
import { knownAssetTypes } from '../inventory/asset-filter.js';
import { parseVocabulary } from '../meta/parse-vocabulary.js';

/** Arguments the graph tools share, parsed the way the inventory tools parse theirs. */

export const edgeTypesArg = (description = 'Only these EdgeType values.') =>
  z.array(z.string()).nullable().default(null).describe(description);

/** The vocabulary's edge types, then any other type the dataset uses. */
function knownEdgeTypes(dataset: Dataset): string[] {
  const known = new Set<string>(EDGE_TYPES);
  const extra = new Set<string>();
  for (const e of dataset.edges) if (!known.has(e.edge_type)) extra.add(e.edge_type);
  return [...EDGE_TYPES, ...extra];
}

/** The edge types of an `edge_types` argument, canonical spelling; null = every type. */
export function parseEdgeTypes(
  dataset: Dataset,
  values: readonly string[] | null,
): ReadonlySet<string> | null {
  if (values === null) return null;
  const valid = knownEdgeTypes(dataset);
  return new Set(values.map((v) => parseVocabulary('edge type', v, valid)));
}

/** The asset types of an `asset_types` argument; null (or empty) = every type. */
export function parseAssetTypes(
  dataset: Dataset,
  values: readonly string[] | null,
): ReadonlySet<string> | null {
  if (values === null || values.length === 0) return null;
  const valid = knownAssetTypes(dataset);
  return new Set(values.map((v) => parseVocabulary('asset type', v, valid)));
}
