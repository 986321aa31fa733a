import type { CloudAsset } from './asset.js';
import { isHierarchyEdge, type NetworkEdge } from './edge.js';
import {
  type OrganizationSummary,
  type OrganizationTopology,
  summariseOrganization,
} from './organization.js';
import type { UnresolvedReference } from './unresolved.js';
import { HIERARCHY_ASSET_TYPES } from './vocabulary.js';

/** The `summary` object of `inventory-map.json` (reference section 9). */
export interface InventorySummary {
  total_assets: number;
  total_edges: number;
  providers: string[];
  assets_by_type: Record<string, number>;
  assets_by_service: Record<string, number>;
  assets_by_region: Record<string, number>;
  assets_by_account: Record<string, number>;
  edges_by_type: Record<string, number>;
  edges_by_relationship: Record<string, number>;
  unlinked_assets: number;
  internet_exposed: number;
  accounts: number;
  cross_account_edges: number;
  external_accounts: number;
  security_service_gaps: number;
  unresolved_references: number;
  organization?: OrganizationSummary;
}

export interface InventoryParts {
  assets: readonly CloudAsset[];
  edges: readonly NetworkEdge[];
  providers: readonly string[];
  organization: OrganizationTopology | null;
  unresolved_references: readonly UnresolvedReference[];
}

/** Count occurrences in first-seen order. */
export function countBy<T>(items: Iterable<T>, key: (item: T) => string | null): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Counts as an object sorted by descending count; ties keep first-seen order. */
export function descendingCounts(counts: Map<string, number>, top?: number): Record<string, number> {
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(top === undefined ? sorted : sorted.slice(0, top));
}

/**
 * The cloud service an identifier belongs to: the third field of an ARN or cloudg synthetic id,
 * the provider namespace of an Azure id, the API host prefix of a GCP name, and a few fixed
 * prefixes; `unknown` otherwise.
 */
export function serviceOf(identifier: string | null): string {
  if (!identifier) return 'unknown';
  if (identifier.startsWith('k8s://') || identifier.startsWith('k8s-gke://')) return 'kubernetes';
  if (identifier.startsWith('gcp-principal:')) return 'iam';
  if (identifier.startsWith('entra:')) return 'entra';
  if (identifier.startsWith('arn:') || identifier.startsWith('cloudg:')) {
    const service = identifier.split(':')[2];
    return service || 'unknown';
  }
  if (identifier.startsWith('//')) {
    const host = identifier.slice(2).split('/')[0] ?? '';
    return host.split('.')[0] || 'unknown';
  }
  if (identifier.startsWith('/')) {
    const match = /\/providers\/([^/]+)/i.exec(identifier);
    return match?.[1] ? match[1].toLowerCase() : 'unknown';
  }
  return 'unknown';
}

export function computeInventorySummary(parts: InventoryParts): InventorySummary {
  const { assets, edges } = parts;
  const byId = new Map<string, CloudAsset>();
  for (const a of assets) byId.set(a.id, a);

  const linked = new Set<string>();
  let crossAccount = 0;
  for (const e of edges) {
    if (isHierarchyEdge(e)) continue;
    linked.add(e.source_id);
    linked.add(e.target_id);
    const s = byId.get(e.source_id);
    const t = byId.get(e.target_id);
    if (!s || !t || !s.account_id || !t.account_id || s.account_id === t.account_id) continue;
    if (HIERARCHY_ASSET_TYPES.has(s.asset_type) && HIERARCHY_ASSET_TYPES.has(t.asset_type)) continue;
    crossAccount += 1;
  }

  const accountCounts = countBy(assets, (a) => a.account_id ?? 'unknown');
  const summary: InventorySummary = {
    total_assets: assets.length,
    total_edges: edges.length,
    providers: [...parts.providers],
    assets_by_type: descendingCounts(countBy(assets, (a) => a.asset_type)),
    assets_by_service: descendingCounts(countBy(assets, (a) => serviceOf(a.arn))),
    assets_by_region: Object.fromEntries(countBy(assets, (a) => a.region)),
    assets_by_account: Object.fromEntries(accountCounts),
    edges_by_type: Object.fromEntries(countBy(edges, (e) => e.edge_type)),
    edges_by_relationship: descendingCounts(countBy(edges, (e) => e.relationship)),
    unlinked_assets: assets.filter((a) => !HIERARCHY_ASSET_TYPES.has(a.asset_type) && !linked.has(a.id))
      .length,
    internet_exposed: assets.filter((a) => a.is_internet_exposed).length,
    accounts: [...accountCounts.keys()].filter((k) => k !== 'unknown').length,
    cross_account_edges: crossAccount,
    external_accounts: assets.filter((a) => a.asset_type === 'CLOUD_ACCOUNT' && a.metadata.external === true)
      .length,
    security_service_gaps: assets.filter(
      (a) => typeof a.metadata.security_service === 'string' && a.metadata.enabled === false,
    ).length,
    unresolved_references: parts.unresolved_references.length,
  };
  if (parts.organization) summary.organization = summariseOrganization(parts.organization);
  return summary;
}
