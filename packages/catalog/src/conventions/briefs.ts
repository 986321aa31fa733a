import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { NetworkEdge } from '../model/edge.js';
import { type Finding, findingRiskScore } from '../model/finding.js';
import type { Severity } from '../model/severity.js';

/** The compact objects most tools use to describe assets, edges and findings. */

export function assetUri(id: string): string {
  return `cloudg://assets/${id}`;
}

export function findingUri(id: string): string {
  return `cloudg://findings/${id}`;
}

export interface AssetBrief {
  id: string;
  name: string;
  type: string;
  provider: string;
  region: string;
  account_id: string | null;
  arn: string | null;
  internet_exposed: boolean;
  open_findings: number;
  max_severity: Severity | null;
  uri: string;
  tags?: Record<string, string>;
}

export function assetBrief(
  dataset: Dataset,
  asset: CloudAsset,
  options: { tags?: boolean } = {},
): AssetBrief {
  const stats = dataset.indexes.findingStats(asset.id);
  const brief: AssetBrief = {
    id: asset.id,
    name: asset.name,
    type: asset.asset_type,
    provider: asset.provider,
    region: asset.region,
    account_id: asset.account_id,
    arn: asset.arn,
    internet_exposed: asset.is_internet_exposed,
    open_findings: stats.open,
    max_severity: stats.maxSeverity,
    uri: assetUri(asset.id),
  };
  if (options.tags) brief.tags = { ...asset.tags };
  return brief;
}

/** The shorter brief of path tools; null values are left out. */
export function hopBrief(dataset: Dataset, asset: CloudAsset): Record<string, unknown> {
  const stats = dataset.indexes.findingStats(asset.id);
  const out: Record<string, unknown> = { id: asset.id, name: asset.name, type: asset.asset_type };
  if (asset.account_id !== null) out.account_id = asset.account_id;
  out.internet_exposed = asset.is_internet_exposed;
  out.open_findings = stats.open;
  if (stats.maxSeverity !== null) out.max_severity = stats.maxSeverity;
  return out;
}

/** A graph node that is not an asset (the internet, a CIDR, an external id). */
export function placeholderBrief(
  id: string,
  name = id,
): { id: string; name: string; type: 'EXTERNAL'; external: true } {
  return { id, name, type: 'EXTERNAL', external: true };
}

const RULE_EDGES = new Set(['SECURITY_GROUP_RULE', 'NACL_RULE']);

export function edgeBrief(dataset: Dataset, edge: NetworkEdge): Record<string, unknown> {
  const source = dataset.indexes.assetById(edge.source_id);
  const target = dataset.indexes.assetById(edge.target_id);
  const out: Record<string, unknown> = {
    id: edge.id,
    // Key order as the reference prints it: each endpoint next to its name.
    source: edge.source_id,
    source_name: source?.name ?? edge.source_id,
    target: edge.target_id,
    target_name: target?.name ?? edge.target_id,
    edge_type: edge.edge_type,
    relationship: edge.relationship,
  };
  if (edge.port_range) out.port_range = edge.port_range;
  if (edge.protocol) out.protocol = edge.protocol;
  if (edge.cidr) out.cidr = edge.cidr;
  if (edge.description) out.description = edge.description;
  if (edge.ports.length) out.ports = edge.ports.slice(0, 20);
  if (RULE_EDGES.has(edge.edge_type)) out.direction = edge.direction;
  if (source?.account_id && target?.account_id && source.account_id !== target.account_id)
    out.cross_account = true;
  return out;
}

export interface FindingBrief {
  id: string;
  title: string;
  severity: Severity;
  risk_score: number;
  source_tool: string;
  resource_id: string | null;
  resource_arn: string | null;
  asset_id: string | null;
  asset_name: string | null;
  compliance_frameworks: string[];
  is_suppressed: boolean;
  cvss_score: number | null;
  detected_at: string | null;
  uri: string;
}

export function findingBrief(dataset: Dataset, finding: Finding): FindingBrief {
  const asset = dataset.indexes.assetOfFinding(finding);
  return {
    id: finding.id,
    title: finding.title,
    severity: finding.severity,
    risk_score: findingRiskScore(finding),
    source_tool: finding.source_tool,
    resource_id: finding.resource_id,
    resource_arn: finding.resource_arn,
    asset_id: asset?.id ?? null,
    asset_name: asset?.name ?? null,
    compliance_frameworks: [...finding.compliance_frameworks],
    is_suppressed: finding.is_suppressed,
    cvss_score: finding.cvss_score,
    detected_at: finding.detected_at,
    uri: findingUri(finding.id),
  };
}
