import type { CloudAsset } from '../model/asset.js';
import type { NetworkEdge } from '../model/edge.js';
import { type Finding, findingRiskScore } from '../model/finding.js';
import { maxSeverity, type Severity } from '../model/severity.js';
import { AssetMatcher } from './asset-matcher.js';

/** What the indexes need from a dataset. */
export interface IndexSource {
  assets: readonly CloudAsset[];
  edges: readonly NetworkEdge[];
  findings: readonly Finding[];
}

/** Open-finding figures of one asset, as briefs and risk sorting show them. */
export interface AssetFindingStats {
  open: number;
  maxSeverity: Severity | null;
  /** Highest `risk_score` among the open findings, 0 without any. */
  maxRisk: number;
}

const NO_FINDINGS: AssetFindingStats = Object.freeze({ open: 0, maxSeverity: null, maxRisk: 0 });

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function group(
  assets: readonly CloudAsset[],
  key: (a: CloudAsset) => string | null,
): Map<string, CloudAsset[]> {
  const map = new Map<string, CloudAsset[]>();
  for (const a of assets) {
    const k = key(a);
    if (k !== null) push(map, k, a);
  }
  return map;
}

/**
 * Lookup structures over one dataset version, each built the first time it is asked for.
 * Every index is a Map in dataset order, so "find by account" is a lookup, not a scan, and
 * results keep the order of the file.
 */
export class DatasetIndexes {
  readonly #source: IndexSource;
  #matcher?: AssetMatcher;
  #byId?: Map<string, CloudAsset>;
  #byType?: Map<string, CloudAsset[]>;
  #byAccount?: Map<string, CloudAsset[]>;
  #byRegion?: Map<string, CloudAsset[]>;
  #byProvider?: Map<string, CloudAsset[]>;
  #byTag?: Map<string, Map<string, CloudAsset[]>>;
  #position?: Map<string, number>;
  #outgoing?: Map<string, NetworkEdge[]>;
  #incoming?: Map<string, NetworkEdge[]>;
  #findingsById?: Map<string, Finding>;
  #findingAsset?: Map<string, CloudAsset | null>;
  #findingAssetAt?: (CloudAsset | null)[];
  #findingsByAsset?: Map<string, Finding[]>;
  #stats?: Map<string, AssetFindingStats>;
  /** The matcher while `matcherSteps` is building it. */
  #matcherDraft?: { next: number; matcher: AssetMatcher };
  /** The finding map while `findingMapSteps` is building it. */
  #findingMapDraft?: {
    next: number;
    byFinding: Map<string, CloudAsset | null>;
    byAsset: Map<string, Finding[]>;
    at: (CloudAsset | null)[];
  };

  constructor(source: IndexSource) {
    this.#source = source;
  }

  /** Asset reference resolution (id, ARN, names, tails). */
  get matcher(): AssetMatcher {
    if (!this.#matcher) for (const _ of this.matcherSteps(Number.POSITIVE_INFINITY));
    return this.#matcher as AssetMatcher;
  }

  /**
   * Build the matcher `size` assets per step (see `findingMapSteps`); a reader that needs it
   * before the steps are done finishes it at once.
   */
  *matcherSteps(size = 10_000): Generator<void, void, void> {
    const assets = this.#source.assets;
    while (!this.#matcher) {
      this.#matcherDraft ??= { next: 0, matcher: new AssetMatcher() };
      const draft = this.#matcherDraft;
      const end = Math.min(assets.length, draft.next + size);
      for (let i = draft.next; i < end; i += 1) draft.matcher.add(assets[i] as CloudAsset);
      draft.next = end;
      if (end === assets.length) {
        this.#matcher = draft.matcher;
        this.#matcherDraft = undefined;
        return;
      }
      yield;
    }
  }

  /**
   * Assets by id (the first of a duplicated id wins). Cheaper than the full matcher, so callers
   * that only look ids up (the dataset summary, edge briefs) do not build the name and ARN tiers.
   */
  get byId(): ReadonlyMap<string, CloudAsset> {
    if (this.#matcher) return this.#matcher.byId;
    if (!this.#byId) {
      const map = new Map<string, CloudAsset>();
      for (const a of this.#source.assets) if (!map.has(a.id)) map.set(a.id, a);
      this.#byId = map;
    }
    return this.#byId;
  }

  assetById(id: string): CloudAsset | undefined {
    return this.byId.get(id);
  }

  assetByArn(arn: string): CloudAsset | undefined {
    return this.matcher.byArn.get(arn);
  }

  assetsByName(name: string): readonly CloudAsset[] {
    return this.matcher.byName.get(name) ?? [];
  }

  get byType(): ReadonlyMap<string, CloudAsset[]> {
    this.#byType ??= group(this.#source.assets, (a) => a.asset_type);
    return this.#byType;
  }

  /** Assets per account id; assets without one are not listed. */
  get byAccount(): ReadonlyMap<string, CloudAsset[]> {
    this.#byAccount ??= group(this.#source.assets, (a) => a.account_id);
    return this.#byAccount;
  }

  get byRegion(): ReadonlyMap<string, CloudAsset[]> {
    this.#byRegion ??= group(this.#source.assets, (a) => a.region);
    return this.#byRegion;
  }

  get byProvider(): ReadonlyMap<string, CloudAsset[]> {
    this.#byProvider ??= group(this.#source.assets, (a) => a.provider);
    return this.#byProvider;
  }

  /** Tag key -> tag value -> assets. */
  get byTag(): ReadonlyMap<string, ReadonlyMap<string, CloudAsset[]>> {
    if (!this.#byTag) {
      const map = new Map<string, Map<string, CloudAsset[]>>();
      for (const a of this.#source.assets) {
        for (const [k, v] of Object.entries(a.tags)) {
          let values = map.get(k);
          if (!values) {
            values = new Map();
            map.set(k, values);
          }
          push(values, v, a);
        }
      }
      this.#byTag = map;
    }
    return this.#byTag;
  }

  /** Assets carrying a tag key, or a key with one value. */
  assetsWithTag(key: string, value?: string): CloudAsset[] {
    const values = this.byTag.get(key);
    if (!values) return [];
    if (value !== undefined) return values.get(value) ?? [];
    const all = new Set<CloudAsset>();
    for (const list of values.values()) for (const a of list) all.add(a);
    return this.inDatasetOrder(all);
  }

  /** Index of each asset id in the dataset, for restoring file order after set operations. */
  get position(): ReadonlyMap<string, number> {
    if (!this.#position) {
      const map = new Map<string, number>();
      this.#source.assets.forEach((a, i) => {
        if (!map.has(a.id)) map.set(a.id, i);
      });
      this.#position = map;
    }
    return this.#position;
  }

  inDatasetOrder(assets: Iterable<CloudAsset>): CloudAsset[] {
    const pos = this.position;
    return [...assets].sort((a, b) => (pos.get(a.id) ?? 0) - (pos.get(b.id) ?? 0));
  }

  /** Edges leaving an endpoint (asset id or raw endpoint such as `0.0.0.0/0`). */
  outgoing(endpoint: string): readonly NetworkEdge[] {
    if (!this.#outgoing) this.#buildEdges();
    return this.#outgoing?.get(endpoint) ?? [];
  }

  /** Edges arriving at an endpoint. */
  incoming(endpoint: string): readonly NetworkEdge[] {
    if (!this.#incoming) this.#buildEdges();
    return this.#incoming?.get(endpoint) ?? [];
  }

  #buildEdges(): void {
    const out = new Map<string, NetworkEdge[]>();
    const inc = new Map<string, NetworkEdge[]>();
    for (const e of this.#source.edges) {
      push(out, e.source_id, e);
      push(inc, e.target_id, e);
    }
    this.#outgoing = out;
    this.#incoming = inc;
  }

  findingById(id: string): Finding | undefined {
    if (!this.#findingsById) {
      const map = new Map<string, Finding>();
      for (const f of this.#source.findings) if (!map.has(f.id)) map.set(f.id, f);
      this.#findingsById = map;
    }
    return this.#findingsById.get(id);
  }

  /**
   * The asset a finding is about: its `resource_arn`, then its `resource_id`, through the same
   * tiers as an asset reference. Null when neither names exactly one asset.
   */
  assetOfFinding(finding: Finding): CloudAsset | null {
    if (!this.#findingAsset) this.#buildFindingMap();
    return this.#findingAsset?.get(finding.id) ?? null;
  }

  /**
   * The asset of every finding, by position in the dataset's findings (null when unmatched): for
   * a pass over all findings that should not look each one up by id.
   */
  assetsOfFindings(): readonly (CloudAsset | null)[] {
    if (!this.#findingAssetAt) this.#buildFindingMap();
    return this.#findingAssetAt ?? [];
  }

  /** Findings matched to an asset (suppressed ones included), in dataset order. */
  findingsOf(assetId: string): readonly Finding[] {
    if (!this.#findingsByAsset) this.#buildFindingMap();
    return this.#findingsByAsset?.get(assetId) ?? [];
  }

  /** Open (not suppressed) findings of an asset: count, worst severity, highest risk. */
  findingStats(assetId: string): AssetFindingStats {
    if (!this.#findingsByAsset) this.#buildFindingMap();
    // Counted per asset on first use: after a suppression only the assets looked at again pay.
    this.#stats ??= new Map();
    let stats = this.#stats.get(assetId);
    if (stats === undefined) {
      const open = (this.#findingsByAsset?.get(assetId) ?? []).filter((f) => !f.is_suppressed);
      stats =
        open.length === 0
          ? NO_FINDINGS
          : {
              open: open.length,
              maxSeverity: maxSeverity(open.map((f) => f.severity)),
              maxRisk: Math.max(...open.map(findingRiskScore)),
            };
      this.#stats.set(assetId, stats);
    }
    return stats;
  }

  /**
   * Findings were suppressed or restored: the open-finding figures are counted again on next use.
   * Everything else here (assets, edges, which asset each finding is on) is unchanged.
   */
  findingsTriaged(): void {
    this.#stats = undefined;
  }

  #buildFindingMap(): void {
    // Finish what findingMapSteps started, or do it all now.
    const steps = this.findingMapSteps(Number.POSITIVE_INFINITY);
    while (!steps.next().done);
  }

  /**
   * Match every finding to its asset, `size` findings per step: for a caller that builds the map
   * ahead of need without holding the event loop for the whole pass (findings/prepare.ts runs it
   * when a dataset is loaded). A reader that needs the map before the steps are done finishes it
   * at once, where they left off.
   */
  *findingMapSteps(size = 10_000): Generator<void, void, void> {
    const findings = this.#source.findings;
    while (!this.#findingAsset) {
      const matcher = this.matcher;
      this.#findingMapDraft ??= { next: 0, byFinding: new Map(), byAsset: new Map(), at: [] };
      const draft = this.#findingMapDraft;
      const end = Math.min(findings.length, draft.next + size);
      for (let i = draft.next; i < end; i += 1) {
        const f = findings[i] as Finding;
        let asset: CloudAsset | null = null;
        for (const ref of [f.resource_arn, f.resource_id]) {
          if (ref) asset = matcher.find(ref);
          if (asset) break;
        }
        draft.byFinding.set(f.id, asset);
        draft.at.push(asset);
        if (asset) push(draft.byAsset, asset.id, f);
      }
      draft.next = end;
      if (end === findings.length) {
        this.#findingAsset = draft.byFinding;
        this.#findingAssetAt = draft.at;
        this.#findingsByAsset = draft.byAsset;
        this.#findingMapDraft = undefined;
        return;
      }
      yield;
    }
  }
}
