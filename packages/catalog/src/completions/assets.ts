import type { ToolContext } from '@cloudg/core';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * The form an asset completes to: its name when no other asset shares it, else its ARN (or id),
 * so every completed value resolves back to exactly this asset.
 */
function completionValue(dataset: Dataset, asset: CloudAsset): string {
  const sharing = dataset.indexes.assetsByName(asset.name).length;
  return sharing === 1 ? asset.name : (asset.arn ?? asset.id);
}

/** Asset references matching what was typed: prefix matches on name, ARN or id first, then substrings. */
export function assetRefCandidates(dataset: Dataset, partial: string): string[] {
  const needle = partial.trim().toLowerCase();
  const prefix = new Set<string>();
  const substring = new Set<string>();
  for (const a of dataset.assets) {
    const forms = [a.name.toLowerCase(), a.id.toLowerCase()];
    if (a.arn) forms.push(a.arn.toLowerCase());
    if (forms.some((f) => f.startsWith(needle))) prefix.add(completionValue(dataset, a));
    else if (forms.some((f) => f.includes(needle))) substring.add(completionValue(dataset, a));
  }
  for (const value of prefix) substring.delete(value);
  return [...[...prefix].sort(), ...[...substring].sort()];
}

/**
 * Complete an asset reference against the dataset named in the request's context arguments
 * (`dataset`), else the active one. No dataset loaded means no candidates.
 */
export function completeAssetRef(ctx: ToolContext<Workspace>, partial: string): string[] {
  const args = ctx.meta.arguments as Record<string, unknown> | undefined;
  const named = typeof args?.dataset === 'string' ? args.dataset.trim() : '';
  const ws = ctx.app;
  if (named ? !ws.has(named) : ws.activeName === null) return [];
  return assetRefCandidates(ws.get(named || null), partial);
}
