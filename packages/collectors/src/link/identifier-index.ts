import type { CloudAsset } from '@cloudg/catalog';

/**
 * Every identifier an asset can be referred by, mapped to its internal id: the `arn`, its
 * `metadata.aliases`, and short forms (the name, the last segment of the identifier, the
 * metadata keys ending in `_id`). Exact identifiers must be unique; short forms may be shared
 * (two `default` security groups) and are resolved by proximity to the referring asset.
 */
export class IdentifierIndex {
  readonly #exact = new Map<string, string>();
  readonly #short = new Map<string, CloudAsset[]>();
  readonly #byId = new Map<string, CloudAsset>();

  constructor(assets: readonly CloudAsset[]) {
    for (const asset of assets) this.add(asset);
  }

  add(asset: CloudAsset): void {
    this.#byId.set(asset.id, asset);
    for (const key of exactKeys(asset)) if (!this.#exact.has(key)) this.#exact.set(key, asset.id);
    for (const key of shortKeys(asset)) {
      const list = this.#short.get(key);
      if (list) {
        if (!list.includes(asset)) list.push(asset);
      } else this.#short.set(key, [asset]);
    }
  }

  asset(id: string): CloudAsset | undefined {
    return this.#byId.get(id);
  }

  /** The asset id an identifier names, or null. `context` scopes an ambiguous short name. */
  resolve(identifier: string, context?: CloudAsset): string | null {
    const exact = this.#exact.get(normalise(identifier));
    if (exact) return exact;
    const candidates = this.#short.get(identifier) ?? this.#short.get(identifier.toLowerCase());
    if (!candidates || candidates.length === 0) return null;
    if (candidates.length === 1) return candidates[0]?.id ?? null;
    if (!context) return null;
    // Same account and region first, then the same account: a short id such as `sg-0web` is
    // only meaningful next to the resource that mentions it.
    const sameRegion = candidates.filter(
      (c) => c.account_id === context.account_id && c.region === context.region && c.id !== context.id,
    );
    if (sameRegion.length === 1) return sameRegion[0]?.id ?? null;
    const sameAccount = candidates.filter((c) => c.account_id === context.account_id && c.id !== context.id);
    return sameAccount.length === 1 ? (sameAccount[0]?.id ?? null) : null;
  }
}

/**
 * Azure resource ids compare case-insensitively and so do Entra object ids; ARNs and GCP names
 * are case-sensitive but never differ only by case in practice, so one lower-cased form serves
 * every provider.
 */
export function normalise(identifier: string): string {
  return identifier.trim().toLowerCase();
}

function exactKeys(asset: CloudAsset): string[] {
  const keys: string[] = [];
  if (asset.arn) keys.push(normalise(asset.arn));
  const aliases = asset.metadata.aliases;
  if (Array.isArray(aliases))
    for (const a of aliases) if (typeof a === 'string' && a) keys.push(normalise(a));
  return keys;
}

function lastSegment(identifier: string): string | null {
  const cut = Math.max(identifier.lastIndexOf('/'), identifier.lastIndexOf(':'));
  const tail = identifier.slice(cut + 1);
  return tail && tail !== identifier ? tail : null;
}

function shortKeys(asset: CloudAsset): string[] {
  const keys = new Set<string>();
  if (asset.name) keys.add(asset.name);
  if (asset.arn) {
    const tail = lastSegment(asset.arn);
    if (tail) keys.add(tail);
  }
  for (const [key, value] of Object.entries(asset.metadata)) {
    if (key.endsWith('_id') && typeof value === 'string' && value && key !== 'account_id') keys.add(value);
  }
  return [...keys];
}
