import { countBy, descendingCounts } from '../model/inventory-summary.js';
import { type OrganizationSummary, summariseOrganization } from '../model/organization.js';
import { SEVERITIES, type Severity } from '../model/severity.js';
import { HIERARCHY_ASSET_TYPES } from '../model/vocabulary.js';
import { CACHE_NAMES, type Dataset } from './dataset.js';

/** The compact dataset entry of `workspace_status` and `list_datasets`. */
export interface DatasetListing {
  name: string;
  kind: string;
  source: string;
  loaded_at: string;
  version: number;
  providers: string[];
  assets: number;
  edges: number;
  findings: number;
  compliance_results: number;
  cached: Record<(typeof CACHE_NAMES)[number], boolean>;
}

export function datasetListing(dataset: Dataset): DatasetListing {
  const cached = Object.fromEntries(
    CACHE_NAMES.map((k) => [k, dataset.isCached(k)]),
  ) as DatasetListing['cached'];
  return {
    name: dataset.name,
    kind: dataset.kind,
    source: dataset.source,
    loaded_at: dataset.loadedAt,
    version: dataset.version,
    providers: [...dataset.providers],
    assets: dataset.assets.length,
    edges: dataset.edges.length,
    findings: dataset.findings.length,
    compliance_results: dataset.compliance.length,
    cached,
  };
}

/** Headline numbers of one dataset (`dataset_summary`, `cloudg://datasets/{name}/summary`). */
export interface DatasetSummary {
  dataset: string;
  kind: string;
  source: string;
  loaded_at: string;
  version: number;
  providers: string[];
  total_assets: number;
  total_edges: number;
  total_findings: number;
  open_findings: number;
  suppressed_findings: number;
  severity_breakdown: Partial<Record<Severity, number>>;
  accounts: number;
  regions: number;
  internet_exposed: number;
  cross_account_edges: number;
  unlinked_assets: number;
  unresolved_references: number;
  compliance_frameworks: string[];
  assets_by_type: Record<string, number>;
  assets_by_provider: Record<string, number>;
  edges_by_type: Record<string, number>;
  has_organization: boolean;
  coverage_records: number;
  organization?: OrganizationSummary;
}

/** Open findings per severity, worst first, listing only severities present. */
export function severityBreakdown(severities: Iterable<Severity>): Partial<Record<Severity, number>> {
  const counts = new Map<Severity, number>();
  for (const s of severities) counts.set(s, (counts.get(s) ?? 0) + 1);
  const out: Partial<Record<Severity, number>> = {};
  for (const s of SEVERITIES) {
    const n = counts.get(s);
    if (n) out[s] = n;
  }
  return out;
}

export function datasetSummary(dataset: Dataset): DatasetSummary {
  return dataset.derived('summary', computeSummary);
}

function computeSummary(dataset: Dataset): DatasetSummary {
  const { assets, edges, findings } = dataset;
  const byId = dataset.indexes.byId;
  const open = findings.filter((f) => !f.is_suppressed);

  const linked = new Set<string>();
  let crossAccount = 0;
  for (const e of edges) {
    linked.add(e.source_id);
    linked.add(e.target_id);
    // Same rule as cross_account_edges: different, non-empty accounts, except a CONTAINS
    // edge between two hierarchy assets (an OU containing an account is not a crossing).
    const s = byId.get(e.source_id);
    const t = byId.get(e.target_id);
    if (!s?.account_id || !t?.account_id || s.account_id === t.account_id) continue;
    if (
      e.edge_type === 'CONTAINS' &&
      HIERARCHY_ASSET_TYPES.has(s.asset_type) &&
      HIERARCHY_ASSET_TYPES.has(t.asset_type)
    )
      continue;
    crossAccount += 1;
  }
  const accounts = new Set<string>();
  const regions = new Set<string>();
  for (const a of assets) {
    if (a.account_id && a.account_id !== 'unknown') accounts.add(a.account_id);
    regions.add(a.region);
  }

  const summary: DatasetSummary = {
    dataset: dataset.name,
    kind: dataset.kind,
    source: dataset.source,
    loaded_at: dataset.loadedAt,
    version: dataset.version,
    providers: [...dataset.providers],
    total_assets: assets.length,
    total_edges: edges.length,
    total_findings: findings.length,
    open_findings: open.length,
    suppressed_findings: findings.length - open.length,
    severity_breakdown: severityBreakdown(open.map((f) => f.severity)),
    accounts: accounts.size,
    regions: regions.size,
    internet_exposed: assets.filter((a) => a.is_internet_exposed).length,
    cross_account_edges: crossAccount,
    unlinked_assets: assets.filter((a) => !HIERARCHY_ASSET_TYPES.has(a.asset_type) && !linked.has(a.id))
      .length,
    unresolved_references: dataset.unresolved_references.length,
    compliance_frameworks: [...new Set(dataset.compliance.map((c) => c.framework))].sort(),
    assets_by_type: descendingCounts(
      countBy(assets, (a) => a.asset_type),
      15,
    ),
    assets_by_provider: Object.fromEntries(countBy(assets, (a) => a.provider)),
    edges_by_type: Object.fromEntries(countBy(edges, (e) => e.edge_type)),
    has_organization: dataset.organization !== null,
    coverage_records: dataset.coverage.length,
  };
  if (dataset.organization) summary.organization = summariseOrganization(dataset.organization);
  return summary;
}
