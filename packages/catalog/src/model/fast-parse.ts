import { randomUUID } from 'node:crypto';
import { isPlainObject } from '@cloudg/core';
import type { z } from 'zod';
import { type CloudAsset, CloudAssetSchema } from './asset.js';
import { type NetworkEdge, NetworkEdgeSchema } from './edge.js';
import { PROVIDERS } from './vocabulary.js';

/**
 * Fast paths for the two lists that make up almost all of a large map. A well-formed asset or
 * edge is checked and normalised by hand (an order of magnitude quicker than a schema walk on
 * 50,000 items); anything unusual falls back to the zod schema, which stays the definition of
 * what is accepted and produces the error report.
 */

export interface ListIssue {
  path: PropertyKey[];
  message: string;
}

const PROVIDER_SET: ReadonlySet<string> = new Set(PROVIDERS);

function optString(v: unknown): boolean {
  return v === undefined || v === null || typeof v === 'string';
}

/** Tags as strings: string values pass as they are, numbers and booleans are stringified. */
function tagRecord(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  let copy: Record<string, string> | undefined;
  for (const key in v) {
    const value = v[key];
    if (typeof value === 'string') {
      if (copy) copy[key] = value;
      continue;
    }
    if (typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    copy ??= { ...(v as Record<string, string>) };
    copy[key] = String(value);
  }
  return copy ?? (v as Record<string, string>);
}

function fastAsset(raw: unknown): CloudAsset | undefined {
  if (!isPlainObject(raw)) return undefined;
  const {
    id,
    arn,
    name,
    asset_type,
    provider,
    region,
    account_id,
    tags,
    metadata,
    collected_at,
    is_internet_exposed,
  } = raw;
  if (!(id === undefined || (typeof id === 'string' && id !== ''))) return undefined;
  if (typeof asset_type !== 'string' || asset_type === '') return undefined;
  if (typeof provider !== 'string') return undefined;
  const prov = provider.toUpperCase();
  if (!PROVIDER_SET.has(prov)) return undefined;
  if (!optString(arn) || !optString(name) || !optString(region) || !optString(collected_at)) return undefined;
  if (
    !(
      account_id === undefined ||
      account_id === null ||
      typeof account_id === 'string' ||
      typeof account_id === 'number'
    )
  )
    return undefined;
  const tagValues = tags === undefined || tags === null ? {} : tagRecord(tags);
  if (tagValues === undefined) return undefined;
  if (!(metadata === undefined || metadata === null || isPlainObject(metadata))) return undefined;
  if (
    !(
      is_internet_exposed === undefined ||
      is_internet_exposed === null ||
      typeof is_internet_exposed === 'boolean'
    )
  )
    return undefined;
  const assetId = (id as string | undefined) ?? randomUUID();
  const assetArn = (arn as string | null | undefined) ?? null;
  // A fixed-shape literal keeps every asset the same hidden class; extra collector fields
  // (rare) are copied after it.
  const asset: CloudAsset = {
    id: assetId,
    arn: assetArn,
    name: (name as string | null | undefined) || assetArn || assetId,
    asset_type,
    provider: prov as CloudAsset['provider'],
    region: (region as string | null | undefined) || 'global',
    account_id: account_id === undefined || account_id === null ? null : String(account_id),
    tags: tagValues,
    metadata: (metadata as Record<string, unknown> | null | undefined) ?? {},
    collected_at: (collected_at as string | null | undefined) ?? null,
    is_internet_exposed: (is_internet_exposed as boolean | null | undefined) ?? false,
  };
  for (const key in raw) if (!ASSET_KEYS.has(key)) asset[key] = raw[key];
  return asset;
}

/** Keys the asset literal sets itself, plus the derived `display_id`, which is dropped. */
const ASSET_KEYS: ReadonlySet<string> = new Set([
  'id',
  'arn',
  'name',
  'asset_type',
  'provider',
  'region',
  'account_id',
  'tags',
  'metadata',
  'collected_at',
  'is_internet_exposed',
  'display_id',
]);

const EDGE_KEYS: ReadonlySet<string> = new Set([
  'id',
  'source_id',
  'target_id',
  'edge_type',
  'relationship',
  'properties',
  'description',
  'ports',
  'port_range',
  'protocol',
  'cidr',
  'direction',
]);

function fastEdge(raw: unknown): NetworkEdge | undefined {
  if (!isPlainObject(raw)) return undefined;
  const {
    id,
    source_id,
    target_id,
    edge_type,
    relationship,
    properties,
    description,
    ports,
    port_range,
    protocol,
    cidr,
    direction,
  } = raw;
  if (!(id === undefined || (typeof id === 'string' && id !== ''))) return undefined;
  if (typeof source_id !== 'string' || source_id === '' || typeof target_id !== 'string' || target_id === '')
    return undefined;
  if (typeof edge_type !== 'string' || edge_type === '') return undefined;
  if (!optString(relationship) || !optString(description) || !optString(protocol) || !optString(cidr))
    return undefined;
  if (!optString(port_range) || !optString(direction)) return undefined;
  if (!(properties === undefined || properties === null || isPlainObject(properties))) return undefined;
  if (!(ports === undefined || ports === null || (Array.isArray(ports) && ports.every(Number.isInteger))))
    return undefined;
  const edge: NetworkEdge = {
    id: (id as string | undefined) ?? randomUUID(),
    source_id,
    target_id,
    edge_type: edge_type.toUpperCase(),
    relationship: (relationship as string | null | undefined) ?? null,
    properties: (properties as Record<string, unknown> | null | undefined) ?? {},
    description: (description as string | null | undefined) ?? null,
    ports: (ports as number[] | null | undefined) ?? [],
    port_range: (port_range as string | null | undefined) ?? null,
    protocol: (protocol as string | null | undefined) ?? null,
    cidr: (cidr as string | null | undefined) ?? null,
    direction: (direction as string | null | undefined) || 'ingress',
  };
  for (const key in raw) if (!EDGE_KEYS.has(key)) edge[key] = raw[key];
  return edge;
}

function parseList<T>(
  items: readonly unknown[],
  key: string,
  fast: (raw: unknown) => T | undefined,
  schema: z.ZodType<T>,
  issues: ListIssue[],
): T[] {
  const out = new Array<T>(items.length);
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i];
    const quick = fast(item);
    if (quick !== undefined) {
      out[i] = quick;
      continue;
    }
    const slow = schema.safeParse(item);
    if (slow.success) out[i] = slow.data;
    else
      for (const issue of slow.error.issues)
        issues.push({ path: [key, i, ...issue.path], message: issue.message });
  }
  return out;
}

/** Validate and normalise a file's `assets` list; problems are appended to `issues`. */
export function parseAssetList(items: readonly unknown[], issues: ListIssue[], key = 'assets'): CloudAsset[] {
  return parseList(items, key, fastAsset, CloudAssetSchema, issues);
}

/** Validate and normalise a file's `edges` list; problems are appended to `issues`. */
export function parseEdgeList(items: readonly unknown[], issues: ListIssue[], key = 'edges'): NetworkEdge[] {
  return parseList(items, key, fastEdge, NetworkEdgeSchema, issues);
}
