import { InvalidArgumentsError } from '@cloudg/core';

/** Fields `find_assets` items may be projected to (`tags` only when asked for). */
export const ASSET_FIELDS = [
  'id',
  'name',
  'type',
  'provider',
  'region',
  'account_id',
  'arn',
  'internet_exposed',
  'open_findings',
  'max_severity',
  'tags',
  'uri',
] as const;

/** Fields `list_findings` items may be projected to. */
export const FINDING_FIELDS = [
  'id',
  'title',
  'severity',
  'risk_score',
  'source_tool',
  'resource_id',
  'resource_arn',
  'asset_id',
  'asset_name',
  'compliance_frameworks',
  'is_suppressed',
  'cvss_score',
  'detected_at',
  'uri',
] as const;

/**
 * Check a `fields` argument before any work: unknown names fail with the valid list. Returns the
 * fields to keep with `id` first and duplicates removed, or null for "no projection".
 */
export function checkFields(
  fields: readonly string[] | null | undefined,
  valid: readonly string[],
): string[] | null {
  if (!fields || fields.length === 0) return null;
  const unknown = fields.filter((f) => !valid.includes(f));
  if (unknown.length) {
    throw new InvalidArgumentsError(`Unknown field(s). Valid fields: ${valid.join(', ')}`, {
      data: { value: unknown, valid: [...valid] },
    });
  }
  return ['id', ...new Set(fields.filter((f) => f !== 'id'))];
}

/** Keep only `fields` of an item, in that order (missing fields are left out). */
export function project<T extends Record<string, unknown>>(
  item: T,
  fields: readonly string[] | null,
): Record<string, unknown> {
  if (!fields) return item;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in item) out[f] = item[f];
  return out;
}
