/**
 * cloudg's own reachability findings (`reachability_findings`): what the internet reaches over
 * network-flow edges, and which ingress rules open a sensitive port to it. Each finding's id is a
 * UUIDv5 of its rule and a stable key (the asset's ARN, else its id), so the same exposure keeps
 * its id from run to run: a previewed id is the id that gets added, and a suppression recorded
 * against it (see suppression-store.ts) applies again after the next run.
 */
import type { Dataset } from '../dataset/dataset.js';
import {
  AbortCheck,
  edgePorts,
  internetReach,
  isInternetAlias,
  isInternetIngress,
  opensPort,
  type PortSet,
  relationshipGraph,
} from '../graph/index.js';
import type { CloudAsset } from '../model/asset.js';
import type { NetworkEdge } from '../model/edge.js';
import type { Finding } from '../model/finding.js';
import type { Severity } from '../model/severity.js';
import { uuid5 } from './uuid5.js';

export const REACHABILITY_TOOL = 'cloudg-reachability';
export const RULE_SENSITIVE_EXPOSURE = 'internet-exposed-sensitive-asset';
export const RULE_UNEXPECTED_EXPOSURE = 'internet-exposed-unexpected-asset';
export const RULE_OPEN_PORT = 'internet-open-sensitive-port';

/**
 * The namespace of the ids: uuid5(NAMESPACE_URL, 'urn:cloudg:reachability'). The reference does
 * not publish its own, so these ids are stable across cloudg runs but differ from the Python
 * tool's.
 */
export const REACHABILITY_NAMESPACE = '990b5087-0f89-518c-b867-6935de3f5d7a';

/**
 * Data stores whose exposure is CRITICAL. The reference lists RDS_INSTANCE, AURORA_CLUSTER,
 * AZURE_SQL, CLOUD_SQL and DYNAMODB_TABLE; RDS_CLUSTER and SQL_DATABASE are the same kind of
 * store under another collector's name, so they are included too.
 */
const SENSITIVE_TYPES = new Set([
  'RDS_INSTANCE',
  'RDS_CLUSTER',
  'AURORA_CLUSTER',
  'AZURE_SQL',
  'SQL_DATABASE',
  'CLOUD_SQL',
  'DYNAMODB_TABLE',
]);
/** Built to face the internet: reached, but not reported. */
const EXPECTED_TYPES = new Set([
  'LOAD_BALANCER',
  'APPLICATION_GATEWAY',
  'CDN_DISTRIBUTION',
  'FRONT_DOOR',
  'INTERNET_GATEWAY',
]);
/** Hops of the walk: their open rules become open-port findings, their members exposure findings. */
const HOP_TYPES = new Set(['SECURITY_GROUP', 'NSG', 'NACL', 'TARGET_GROUP']);

/** The sensitive ports, with the service named in titles. */
export const SENSITIVE_PORTS: ReadonlyMap<number, string> = new Map([
  [22, 'SSH'],
  [3389, 'RDP'],
  [3306, 'MySQL'],
  [5432, 'PostgreSQL'],
  [1433, 'MSSQL'],
  [27017, 'MongoDB'],
  [6379, 'Redis'],
  [9200, 'Elasticsearch'],
  [5601, 'Kibana'],
  [8080, 'HTTP-alt'],
  [8443, 'HTTPS-alt'],
]);

const SENSITIVE_FRAMEWORKS = ['CIS', 'NIST-800-53'];
const OPEN_PORT_FRAMEWORKS = ['CIS', 'NIST-800-53', 'PCI-DSS'];

/** A generated finding and the asset it is about (known even before the finding is added). */
export interface ReachabilityFinding {
  finding: Finding;
  asset: CloudAsset;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

function assetKey(asset: CloudAsset | null | undefined, id: string): string {
  return asset?.arn || id;
}

interface FindingInit {
  rule: string;
  key: string;
  asset: CloudAsset;
  title: string;
  description: string;
  severity: Severity;
  frameworks: string[];
  evidence: string;
  remediation: string;
  detectedAt: string;
}

function makeFinding(init: FindingInit): ReachabilityFinding {
  const { asset } = init;
  return {
    asset,
    finding: {
      id: uuid5(`${init.rule}\n${init.key}`, REACHABILITY_NAMESPACE),
      title: init.title,
      description: init.description,
      severity: init.severity,
      source_tool: REACHABILITY_TOOL,
      resource_id: asset.id,
      resource_arn: asset.arn,
      resource_type: asset.asset_type,
      region: asset.region,
      account_id: asset.account_id,
      compliance_frameworks: [...init.frameworks],
      is_suppressed: false,
      suppression_reason: null,
      cvss_score: null,
      detected_at: init.detectedAt,
      evidence: init.evidence,
      remediation: init.remediation,
      source_finding_id: init.rule,
    },
  };
}

/** `internet -> a -> b` with node names, for evidence (an internet placeholder reads `internet`). */
function describePath(dataset: Dataset, nodes: readonly string[]): string {
  const name = (id: string) => dataset.indexes.assetById(id)?.name ?? id;
  const [first, ...rest] = nodes;
  const head = first === undefined || isInternetAlias(first) ? [] : [name(first)];
  return ['internet', ...head, ...rest.map(name)].join(' -> ');
}

/**
 * Exposure findings: every reached asset that is neither a hop nor built to face the internet,
 * by asset id (the order the reference's examples show).
 */
function exposureFindings(dataset: Dataset, detectedAt: string, signal?: AbortSignal): ReachabilityFinding[] {
  const reach = internetReach(dataset, signal);
  const abort = new AbortCheck(signal);
  const out: ReachabilityFinding[] = [];
  const seen = new Set<string>();
  for (const asset of dataset.assets) {
    abort.tick();
    if (seen.has(asset.id) || !reach.reaches(asset.id)) continue;
    seen.add(asset.id);
    if (HOP_TYPES.has(asset.asset_type) || EXPECTED_TYPES.has(asset.asset_type)) continue;
    const sensitive = SENSITIVE_TYPES.has(asset.asset_type);
    const path = describePath(dataset, reach.pathTo(asset.id) ?? [asset.id]);
    out.push(
      makeFinding({
        rule: sensitive ? RULE_SENSITIVE_EXPOSURE : RULE_UNEXPECTED_EXPOSURE,
        key: assetKey(asset, asset.id),
        asset,
        title: sensitive
          ? `Internet-exposed sensitive data store: ${asset.name}`
          : `Unexpected internet-exposed resource: ${asset.name}`,
        description: sensitive
          ? `${asset.asset_type} ${asset.name} can be reached from the internet over network-flow edges.`
          : `${asset.asset_type} ${asset.name} can be reached from the internet over network-flow edges, and resources of this type are not expected to face the internet.`,
        severity: sensitive ? 'CRITICAL' : 'HIGH',
        frameworks: sensitive ? SENSITIVE_FRAMEWORKS : [],
        evidence: `Network path: ${path}`,
        remediation: sensitive
          ? 'Remove the public route to the data store: restrict the security group or firewall rules that admit internet traffic, and reach it through private endpoints.'
          : 'Confirm the resource must be public; otherwise restrict the ingress rules, load balancer or route that expose it.',
        detectedAt,
      }),
    );
  }
  return out.sort((a, b) => compareText(a.asset.id, b.asset.id));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How the title names the internet source: the historical `0.0.0.0/0` for both, else the tag as written. */
function sourceLabel(edge: Pick<NetworkEdge, 'source_id' | 'cidr'>): string {
  for (const value of [edge.cidr, edge.source_id]) {
    if (value === '0.0.0.0/0' || value === '::/0') return '0.0.0.0/0';
  }
  const tag = [edge.cidr, edge.source_id].find((v) => v && /^(internet|any|\*)$/i.test(v.trim()));
  return tag?.trim() ?? '0.0.0.0/0';
}

/**
 * Open-port findings: each ingress edge from an internet source (merged per node pair by the
 * relationship graph) yields one finding per sensitive port it opens, on the rule's target; by
 * target id, source and port.
 */
function openPortFindings(dataset: Dataset, detectedAt: string, signal?: AbortSignal): ReachabilityFinding[] {
  const graph = relationshipGraph(dataset, signal);
  const abort = new AbortCheck(signal);
  const byId = new Map(dataset.edges.map((e) => [e.id, e]));
  const out: (ReachabilityFinding & { order: string })[] = [];
  graph.forEachEdge((_key, edge, source, target) => {
    abort.tick();
    const raw = edge.edge_ids.map((id) => byId.get(id)).filter((e): e is NetworkEdge => e !== undefined);
    const ingress = raw.filter(isInternetIngress);
    const asset = graph.getNodeAttribute(target, 'asset');
    if (ingress.length === 0 || !asset) return;
    const sets: PortSet[] = ingress.map(edgePorts);
    const sourceAsset = graph.getNodeAttribute(source, 'asset');
    const key = `${assetKey(sourceAsset, source)}->${assetKey(asset, target)}`;
    const from = sourceLabel(ingress[0] as NetworkEdge);
    for (const [port, service] of SENSITIVE_PORTS) {
      if (!sets.some((set) => opensPort(set, port))) continue;
      out.push({
        order: `${target}\u0000${source}\u0000${String(port).padStart(5, '0')}`,
        ...makeFinding({
          rule: `${RULE_OPEN_PORT}:${port}`,
          key,
          asset,
          title: `Security group allows ${service} (port ${port}) from ${from}`,
          description: `${asset.asset_type} ${asset.name} admits ${service} (port ${port}) from ${from}.`,
          severity: 'CRITICAL',
          frameworks: OPEN_PORT_FRAMEWORKS,
          evidence: `${edge.edge_type} ${from} -> ${asset.name} ports ${edge.port_range ?? 'all'}`,
          remediation: `Restrict port ${port} to known addresses (a VPN or bastion range) instead of ${from}.`,
          detectedAt,
        }),
      });
    }
  });
  return out.sort((a, b) => compareText(a.order, b.order)).map(({ finding, asset }) => ({ finding, asset }));
}

/** Every reachability finding of the dataset: exposures, then open ports. */
export function generateReachabilityFindings(dataset: Dataset, signal?: AbortSignal): ReachabilityFinding[] {
  const detectedAt = now();
  return [...exposureFindings(dataset, detectedAt, signal), ...openPortFindings(dataset, detectedAt, signal)];
}
