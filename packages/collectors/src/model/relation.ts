/**
 * A relation an asset declares in `metadata.relations` (INVENTORY_REFERENCE.md section 7).
 * Collectors never build edges between assets of different services themselves: they name the
 * other side by any identifier and the linker resolves it, so a collector does not need to know
 * whether the other service was collected, denied or lives in another account.
 */
export interface Relation {
  target: string;
  edge: string;
  relationship?: string;
  /** The edge runs from `target` to the declaring asset. */
  reverse?: true;
  description?: string;
  properties?: Record<string, unknown>;
}

export interface RelationOptions {
  reverse?: boolean;
  description?: string;
  properties?: Record<string, unknown>;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/**
 * Build a relation, or null for an empty target (callers drop nulls). Empty property values are
 * left out, as the reference's `rel()` does, so relations compare equal whatever the API omitted.
 */
export function rel(
  target: string | null | undefined,
  edge: string,
  relationship?: string | null,
  options: RelationOptions = {},
): Relation | null {
  if (typeof target !== 'string' || target.trim() === '') return null;
  const out: Relation = { target, edge };
  if (relationship) out.relationship = relationship;
  if (options.reverse) out.reverse = true;
  if (options.description) out.description = options.description;
  const props = Object.fromEntries(Object.entries(options.properties ?? {}).filter(([, v]) => !isEmpty(v)));
  if (Object.keys(props).length > 0) out.properties = props;
  return out;
}

/** Drop the nulls `rel()` returns for missing targets. */
export function relations(...items: (Relation | null | undefined)[]): Relation[] {
  return items.filter((r): r is Relation => r !== null && r !== undefined);
}
