import type { CloudAsset } from '../model/asset.js';

/** The outcome of resolving an asset reference. */
export type MatchResult =
  | { kind: 'found'; asset: CloudAsset }
  | { kind: 'ambiguous'; assets: CloudAsset[] }
  | { kind: 'none' };

function push(map: Map<string, CloudAsset[]>, key: string, asset: CloudAsset): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [asset]);
  else if (list[list.length - 1] !== asset) list.push(asset);
}

/** Text after the last `/` of an identifier (`i-0web1` from an instance ARN). */
export function identifierTail(identifier: string): string | null {
  const cut = identifier.lastIndexOf('/');
  if (cut < 0 || cut === identifier.length - 1) return null;
  return identifier.slice(cut + 1);
}

/**
 * The resource part of an ARN (everything after the fifth `:`) and its last `:` or `/`
 * segment: `function:api-handler` and `api-handler`.
 */
export function arnResourceParts(arn: string): string[] {
  if (!arn.startsWith('arn:')) return [];
  // The resource starts after the fifth `:`; found with indexOf rather than split and join,
  // because the matcher runs this for every asset of a 50,000-asset estate.
  let cut = -1;
  for (let i = 0; i < 5; i++) {
    cut = arn.indexOf(':', cut + 1);
    if (cut < 0) return [];
  }
  const resource = arn.slice(cut + 1);
  if (!resource) return [];
  const last = resource.slice(Math.max(resource.lastIndexOf(':'), resource.lastIndexOf('/')) + 1);
  return last && last !== resource ? [resource, last] : [resource];
}

/**
 * Resolves asset references the way every tool does, stopping at the first unique hit:
 * id, exact identifier (Azure ids case-insensitively), unique exact name, unique identifier
 * tail, unique ARN resource part, unique case-insensitive name. A name or tail shared by several
 * assets does not resolve; when the reference is the exact name of several assets the last two
 * (looser) steps are skipped so a looser form cannot pick one of them arbitrarily.
 */
export class AssetMatcher {
  readonly byId = new Map<string, CloudAsset>();
  readonly byArn = new Map<string, CloudAsset>();
  readonly byArnLower = new Map<string, CloudAsset>();
  readonly byName = new Map<string, CloudAsset[]>();
  readonly byNameLower = new Map<string, CloudAsset[]>();
  readonly byTail = new Map<string, CloudAsset[]>();
  readonly byResourcePart = new Map<string, CloudAsset[]>();

  constructor(assets: readonly CloudAsset[] = []) {
    for (const asset of assets) this.add(asset);
  }

  /**
   * Index one more asset (an earlier asset keeps an id or ARN both claim). Lets a caller build
   * the matcher a slice of assets at a time (DatasetIndexes.matcherSteps).
   */
  add(asset: CloudAsset): void {
    if (!this.byId.has(asset.id)) this.byId.set(asset.id, asset);
    push(this.byName, asset.name, asset);
    push(this.byNameLower, asset.name.toLowerCase(), asset);
    const arn = asset.arn;
    if (!arn) return;
    if (!this.byArn.has(arn)) this.byArn.set(arn, asset);
    const lower = arn.toLowerCase();
    if (!this.byArnLower.has(lower)) this.byArnLower.set(lower, asset);
    const tail = identifierTail(arn);
    if (tail) push(this.byTail, tail, asset);
    for (const part of arnResourceParts(arn)) push(this.byResourcePart, part, asset);
  }

  match(ref: string): MatchResult {
    const value = ref.trim();
    if (!value) return { kind: 'none' };
    const byId = this.byId.get(value);
    if (byId) return { kind: 'found', asset: byId };
    const byArn =
      this.byArn.get(value) ?? (value.startsWith('/') ? this.byArnLower.get(value.toLowerCase()) : undefined);
    if (byArn) return { kind: 'found', asset: byArn };

    let ambiguous: CloudAsset[] | null = null;
    const consider = (hits: CloudAsset[] | undefined): CloudAsset | null => {
      if (!hits || hits.length === 0) return null;
      if (hits.length === 1) return hits[0] ?? null;
      ambiguous ??= hits;
      return null;
    };

    const names = this.byName.get(value);
    const byName = consider(names);
    if (byName) return { kind: 'found', asset: byName };
    const byTail = consider(this.byTail.get(value));
    if (byTail) return { kind: 'found', asset: byTail };
    if (!names || names.length < 2) {
      const byPart = consider(this.byResourcePart.get(value));
      if (byPart) return { kind: 'found', asset: byPart };
      const byLower = consider(this.byNameLower.get(value.toLowerCase()));
      if (byLower) return { kind: 'found', asset: byLower };
    }
    return ambiguous ? { kind: 'ambiguous', assets: ambiguous } : { kind: 'none' };
  }

  /** The unique asset a reference names, or null (ambiguous or unknown). */
  find(ref: string): CloudAsset | null {
    const result = this.match(ref);
    return result.kind === 'found' ? result.asset : null;
  }
}
