import { randomUUID } from 'node:crypto';
import type { CloudAsset } from '../model/asset.js';
import type { CollectionCoverage } from '../model/coverage.js';
import type { NetworkEdge } from '../model/edge.js';
import type { ComplianceResult, Finding } from '../model/finding.js';
import type { OrganizationTopology } from '../model/organization.js';
import type { UnresolvedReference } from '../model/unresolved.js';
import type { DatasetKind } from '../model/vocabulary.js';
import { DatasetIndexes } from './indexes.js';

/** Everything a loader or a live collection produces: one view of an estate. */
export interface InventoryResult {
  assets: CloudAsset[];
  edges: NetworkEdge[];
  findings: Finding[];
  compliance: ComplianceResult[];
  coverage: CollectionCoverage[];
  organization: OrganizationTopology | null;
  unresolved_references: UnresolvedReference[];
  /** Configured providers, lower case. */
  providers: string[];
  /** Regions collected per provider. */
  regions: Record<string, string[]>;
}

export interface DatasetInit extends Partial<InventoryResult> {
  name: string;
  kind: DatasetKind;
  /** File path, `live`, `inline`, `ingest` or `snapshot of <name>`. */
  source: string;
  /** Free-form facts about the load (for example `findings_source`). */
  metadata?: Record<string, unknown>;
}

/** Names of the derived structures reported in a listing's `cached` block. */
export const CACHE_NAMES = ['graph', 'dependency_graph', 'ontology', 'centrality', 'rag_entity'] as const;

/**
 * One named dataset. The arrays are plain data that tools may change in place; whoever changes
 * them calls `touch()` (or the workspace's `mutated()`), which bumps `version` and drops every
 * derived structure so nothing stale is ever served.
 */
export class Dataset implements InventoryResult {
  name: string;
  kind: DatasetKind;
  source: string;
  readonly loadedAt: string;
  /** Identifies this particular load, so a cursor from a replaced dataset of the same name fails. */
  readonly loadId: string = randomUUID();
  version = 0;
  assets: CloudAsset[];
  edges: NetworkEdge[];
  findings: Finding[];
  compliance: ComplianceResult[];
  coverage: CollectionCoverage[];
  organization: OrganizationTopology | null;
  unresolved_references: UnresolvedReference[];
  providers: string[];
  regions: Record<string, string[]>;
  metadata: Record<string, unknown>;

  #derived = new Map<string, unknown>();
  #derivedVersion = 0;

  constructor(init: DatasetInit) {
    this.name = init.name;
    this.kind = init.kind;
    this.source = init.source;
    this.loadedAt = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
    this.assets = init.assets ?? [];
    this.edges = init.edges ?? [];
    this.findings = init.findings ?? [];
    this.compliance = init.compliance ?? [];
    this.coverage = init.coverage ?? [];
    this.organization = init.organization ?? null;
    this.unresolved_references = init.unresolved_references ?? [];
    this.providers = init.providers?.length ? [...init.providers] : providersOf(this.assets);
    this.regions = init.regions ?? {};
    this.metadata = init.metadata ?? {};
  }

  /**
   * Record an in-place change: the version goes up and derived structures are dropped, except
   * those `keep` names, which the caller knows the change leaves valid (a suppression does not
   * change a graph). Cursors go stale either way.
   */
  touch(keep?: (key: string) => boolean): void {
    if (keep === undefined || this.#derivedVersion !== this.version) this.#derived.clear();
    else for (const key of [...this.#derived.keys()]) if (!keep(key)) this.#derived.delete(key);
    this.version += 1;
    this.#derivedVersion = this.version;
  }

  /**
   * A structure derived from the data, built on first use and kept until the version changes.
   * Tools use this for graphs, ontologies and the like; `build` must not mutate the dataset.
   */
  derived<T>(key: string, build: (dataset: Dataset) => T): T {
    if (this.#derivedVersion !== this.version) {
      this.#derived.clear();
      this.#derivedVersion = this.version;
    }
    if (this.#derived.has(key)) return this.#derived.get(key) as T;
    const value = build(this);
    this.#derived.set(key, value);
    return value;
  }

  /** Whether a derived structure is currently built. */
  isCached(key: string): boolean {
    return this.#derivedVersion === this.version && this.#derived.has(key);
  }

  /** Lookup indexes (by id, ARN, name, type, account, region, tag, endpoints, findings). */
  get indexes(): DatasetIndexes {
    return this.derived('indexes', (d) => new DatasetIndexes(d));
  }

  /** A deep copy under another name, for snapshots. Derived structures are not copied. */
  copy(init: { name: string; kind: DatasetKind; source: string }): Dataset {
    return new Dataset({
      ...init,
      assets: structuredClone(this.assets),
      edges: structuredClone(this.edges),
      findings: structuredClone(this.findings),
      compliance: structuredClone(this.compliance),
      coverage: structuredClone(this.coverage),
      organization: structuredClone(this.organization),
      unresolved_references: structuredClone(this.unresolved_references),
      providers: [...this.providers],
      regions: structuredClone(this.regions),
      metadata: structuredClone(this.metadata),
    });
  }
}

/** Providers present in a list of assets, lower case, in first-seen order. */
export function providersOf(assets: readonly CloudAsset[]): string[] {
  const seen = new Set<string>();
  for (const a of assets) seen.add(a.provider.toLowerCase());
  return [...seen];
}
