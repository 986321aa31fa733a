import type { CloudAsset } from './asset.js';
import type { CollectionCoverage } from './coverage.js';
import { toD3Graph } from './d3-graph.js';
import type { NetworkEdge } from './edge.js';
import { type ComplianceResult, type Finding, findingRiskScore } from './finding.js';
import { computeInventorySummary } from './inventory-summary.js';
import type { OrganizationTopology } from './organization.js';
import { SEVERITIES } from './severity.js';
import type { UnresolvedReference } from './unresolved.js';

/**
 * The on-disk forms cloudg writes: `inventory-map.json` (section 14), the organization file
 * (section 17) and the findings report. Key order is fixed so files are stable byte for byte.
 */

export function assetFileForm(a: CloudAsset): Record<string, unknown> {
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
    ...extra
  } = a;
  return {
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
    ...extra,
    display_id: arn ?? id,
  };
}

export function edgeFileForm(e: NetworkEdge): Record<string, unknown> {
  const {
    id,
    source_id,
    target_id,
    edge_type,
    ports,
    port_range,
    protocol,
    cidr,
    direction,
    description,
    relationship,
    properties,
    ...extra
  } = e;
  return {
    id,
    source_id,
    target_id,
    edge_type,
    ports,
    port_range,
    protocol,
    cidr,
    direction,
    description,
    relationship,
    properties,
    ...extra,
  };
}

export interface InventoryMapInput {
  assets: readonly CloudAsset[];
  edges: readonly NetworkEdge[];
  providers: readonly string[];
  regions: Record<string, string[]>;
  organization: OrganizationTopology | null;
  unresolved_references: readonly UnresolvedReference[];
}

export function inventoryMapFile(input: InventoryMapInput): Record<string, unknown> {
  return {
    summary: computeInventorySummary(input),
    providers: [...input.providers],
    regions: input.regions,
    assets: input.assets.map(assetFileForm),
    edges: input.edges.map(edgeFileForm),
    unresolved_references: input.unresolved_references,
  };
}

export function findingFileForm(f: Finding): Record<string, unknown> {
  return { ...f, risk_score: findingRiskScore(f) };
}

export interface FindingsReportInput {
  generatedAt: string;
  assets?: readonly CloudAsset[];
  edges?: readonly NetworkEdge[];
  findings: readonly Finding[];
  compliance: readonly ComplianceResult[];
  coverage?: readonly CollectionCoverage[];
  providers: readonly string[];
}

/**
 * cloudg's `findings.json`: report metadata, a findings summary, the findings and compliance
 * results, and (for a full report) the assets, edges and their D3 graph.
 */
export function findingsReportFile(input: FindingsReportInput): Record<string, unknown> {
  const bySeverity = Object.fromEntries(
    SEVERITIES.map((s) => [s, input.findings.filter((f) => f.severity === s && !f.is_suppressed).length]),
  );
  const report: Record<string, unknown> = {
    metadata: {
      tool: 'cloudg',
      report: 'findings',
      generated_at: input.generatedAt,
      providers: [...input.providers],
    },
    summary: {
      total_findings: input.findings.length,
      open_findings: input.findings.filter((f) => !f.is_suppressed).length,
      suppressed_findings: input.findings.filter((f) => f.is_suppressed).length,
      by_severity: bySeverity,
      total_assets: input.assets?.length ?? 0,
      compliance_results: input.compliance.length,
    },
  };
  if (input.assets) report.assets = input.assets.map(assetFileForm);
  if (input.edges) report.edges = input.edges.map(edgeFileForm);
  report.findings = input.findings.map(findingFileForm);
  report.compliance = input.compliance;
  if (input.coverage?.length) report.coverage = input.coverage;
  if (input.assets && input.edges) report.graph = toD3Graph(input.assets, input.edges);
  return report;
}

/** The organization file: every `to_dict()` key, in the reference's order. */
export function organizationFile(org: OrganizationTopology): Record<string, unknown> {
  return {
    organization_id: org.organization_id,
    organization_arn: org.organization_arn,
    management_account_id: org.management_account_id,
    caller_account_id: org.caller_account_id,
    feature_set: org.feature_set,
    roots: org.roots,
    ous: org.ous,
    accounts: org.accounts,
    policies: org.policies,
    delegated_administrators: org.delegated_administrators,
    enabled_services: org.enabled_services,
    landing_zone: org.landing_zone,
    governed_regions: org.governed_regions,
    shared_accounts: org.shared_accounts,
    enabled_controls: org.enabled_controls,
    enabled_baselines: org.enabled_baselines,
    control_tower_region: org.control_tower_region,
    errors: org.errors,
    control_tower_enabled: org.control_tower_enabled,
  };
}
