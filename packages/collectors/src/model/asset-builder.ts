import { randomUUID } from 'node:crypto';
import type { CloudAsset, CloudProvider } from '@cloudg/catalog';
import type { Relation } from './relation.js';

/** What a collector knows about one resource; the builder fills the rest of a CloudAsset. */
export interface AssetInput {
  arn: string;
  name?: string | null;
  asset_type: string;
  provider: CloudProvider;
  region?: string | null;
  account_id?: string | null;
  tags?: Record<string, string>;
  metadata?: Record<string, unknown>;
  relations?: Relation[];
  /** Other identifiers the resource is known by (instance profile ARNs, alias ARNs, URLs). */
  aliases?: string[];
  is_internet_exposed?: boolean;
}

/** ISO 8601 in UTC without the zone suffix, as the reference's files write `collected_at`. */
export function collectedAt(now: Date = new Date()): string {
  return now.toISOString().replace(/Z$/, '');
}

/**
 * One CloudAsset. Null and undefined metadata values are kept out so the map stays small and a
 * missing API field reads the same as an absent one. `raw_data` is never set: nothing an API
 * returned reaches the dataset except the normalised fields the collector chose.
 */
export function buildAsset(input: AssetInput): CloudAsset {
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.metadata ?? {})) {
    if (value !== undefined) metadata[key] = value;
  }
  if (input.relations && input.relations.length > 0) metadata.relations = input.relations;
  const aliases = [...new Set((input.aliases ?? []).filter((a) => a && a !== input.arn))];
  if (aliases.length > 0) metadata.aliases = aliases;
  return {
    id: randomUUID(),
    arn: input.arn,
    name: input.name || input.arn,
    asset_type: input.asset_type,
    provider: input.provider,
    region: input.region || 'global',
    account_id: input.account_id ?? null,
    tags: input.tags ?? {},
    metadata,
    collected_at: collectedAt(),
    is_internet_exposed: input.is_internet_exposed ?? false,
  };
}

/** AWS `[{Key, Value}]` tag lists as a record, values stringified. */
export function awsTags(
  tags: readonly { Key?: string; Value?: string }[] | undefined | null,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const tag of tags ?? []) if (tag.Key) out[tag.Key] = tag.Value ?? '';
  return out;
}

/** The declared relations of an asset (empty when it declares none). */
export function relationsOf(asset: CloudAsset): Relation[] {
  const value = asset.metadata.relations;
  return Array.isArray(value) ? (value as Relation[]) : [];
}
