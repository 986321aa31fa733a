import { closeMatches } from '@cloudg/core';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';
import { listedHint, matchesPhrase } from './hints.js';

/** How an asset is named in suggestions and ambiguity candidates. */
export interface AssetCandidate {
  id: string;
  name: string;
  arn: string | null;
  type: string;
  account_id: string | null;
  dataset?: string;
}

const MAX_SUGGESTIONS = 5;

function candidate(a: CloudAsset, dataset?: string): AssetCandidate {
  const c: AssetCandidate = {
    id: a.id,
    name: a.name,
    arn: a.arn,
    type: a.asset_type,
    account_id: a.account_id,
  };
  if (dataset !== undefined) c.dataset = dataset;
  return c;
}

/**
 * Assets close to a reference that matched nothing: substring hits on name or ARN first
 * (case-insensitive), then names similar to it, at most five.
 */
export function suggestAssets(dataset: Dataset, ref: string, limit = MAX_SUGGESTIONS): CloudAsset[] {
  const needle = ref.trim().toLowerCase();
  const out: CloudAsset[] = [];
  const seen = new Set<string>();
  const take = (a: CloudAsset): boolean => {
    if (!seen.has(a.id)) {
      seen.add(a.id);
      out.push(a);
    }
    return out.length >= limit;
  };
  if (needle.length >= 2) {
    for (const a of dataset.assets) {
      if (a.name.toLowerCase().includes(needle) || a.arn?.toLowerCase().includes(needle)) {
        if (take(a)) return out;
      }
    }
  }
  const byName = dataset.indexes.matcher.byName;
  for (const name of closeMatches(ref.trim(), byName.keys(), limit, 0.6)) {
    for (const a of byName.get(name) ?? []) if (take(a)) return out;
  }
  return out;
}

/** The asset a reference names, or null when it names none or several. */
export function findAsset(dataset: Dataset, ref: string): CloudAsset | null {
  return dataset.indexes.matcher.find(ref);
}

/**
 * Resolve an asset reference (id, ARN or resource id, unique name, unique tail...) or fail with
 * ReferenceNotFoundError (-32602). The message never repeats the reference or other assets'
 * names; the close matches (or, for an ambiguous reference, the candidates) follow it as a second
 * text block built from data, which the caller's output pipeline transforms like any result
 * (under `strict` they are pseudonyms). `data` holds `value`, `dataset` and either `suggestions`
 * or `ambiguous` + `candidates`.
 */
export function resolveAssetRef(dataset: Dataset, ref: string): CloudAsset {
  const result = dataset.indexes.matcher.match(ref);
  if (result.kind === 'found') return result.asset;
  if (result.kind === 'ambiguous') {
    const candidates = result.assets.slice(0, MAX_SUGGESTIONS).map((a) => candidate(a));
    throw new ReferenceNotFoundError(
      `The reference matches ${result.assets.length} assets in this dataset. Pass the id of one of the candidates listed with this error as ref, or a longer form such as the ARN.`,
      {
        data: {
          value: ref,
          dataset: dataset.name,
          ambiguous: result.assets.map((a) => a.id),
          candidates,
        },
        hints: [listedHint('Candidates (pass one id as ref)', { candidates })],
      },
    );
  }
  const suggestions = suggestAssets(dataset, ref).map((a) => candidate(a, dataset.name));
  throw new ReferenceNotFoundError(
    `No asset matches the reference in this dataset.${matchesPhrase(suggestions.length)} Use find_assets(query=...) to search by name, ARN or tag.`,
    {
      data: { value: ref, dataset: dataset.name, suggestions },
      hints: suggestions.length
        ? [listedHint('Close matches (pass one id as ref)', { close_matches: suggestions })]
        : [],
    },
  );
}
