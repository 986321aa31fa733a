import { ASSET_TYPES } from '../tools/meta/vocabulary/index.js';

/** AssetType values starting with what was typed, upper-cased (`-` and spaces read as `_`). */
export function completeAssetType(_ctx: unknown, partial: string): string[] {
  const prefix = partial
    .trim()
    .toUpperCase()
    .replace(/[-\s]+/g, '_');
  return ASSET_TYPES.filter((t) => t.startsWith(prefix));
}
