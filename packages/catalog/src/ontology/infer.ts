import { edgePorts, isInternetSource, opensPort } from '../graph/index.js';
import type { CloudAsset } from '../model/asset.js';
import type { NetworkEdge } from '../model/edge.js';
import { isRelationType } from './vocabulary.js';

/**
 * `infer_relations`: the semantic relations one edge stands for, read from its type, its
 * endpoint types, CIDR and ports. A relationship declared on the edge (any relation type name)
 * replaces the inferred relations on containment, attachment and the typed inventory edges, and
 * comes first on the network and IAM edges, where the inferred ones follow it.
 */

const SECURITY_GROUP_TYPES = new Set(['SECURITY_GROUP', 'NSG', 'FIREWALL_RULE']);
const NACL_TYPES = new Set(['NACL', 'NETWORK_ACL']);
const VPC_TYPES = new Set(['VPC', 'VNET', 'VPC_NETWORK']);
const SUBNET_TYPES = new Set(['SUBNET']);
const ORG_TYPES = new Set(['ORGANIZATION', 'ORG_UNIT', 'FOLDER', 'MANAGEMENT_GROUP']);
const ACCOUNT_TYPES = new Set(['CLOUD_ACCOUNT', 'SUBSCRIPTION', 'PROJECT', 'GCP_PROJECT']);
const CLUSTER_TYPES = new Set(['ECS_CLUSTER', 'EKS_CLUSTER', 'AKS_CLUSTER', 'GKE_CLUSTER', 'K8S_NAMESPACE']);
const SERVICE_TYPES = new Set([
  'ECS_SERVICE',
  'ECS_TASK_DEFINITION',
  'EKS_NODEGROUP',
  'K8S_WORKLOAD',
  'K8S_SERVICE',
  'K8S_INGRESS',
  'CONTAINER_SERVICE',
  'K8S_NAMESPACE',
]);
/** What a subnet may "contain as an instance": anything placed in it that is not network structure. */
const NOT_PLACED = new Set([...VPC_TYPES, ...SUBNET_TYPES, ...ORG_TYPES, ...ACCOUNT_TYPES]);

/** Edges whose declared relationship comes first, with the inferred relations after it. */
const DECLARED_FIRST = new Set([
  'SECURITY_GROUP_RULE',
  'NACL_RULE',
  'ROUTE',
  'PEERING',
  'INTERNET_EXPOSED',
  'LOAD_BALANCER_TARGET',
  'IAM_TRUST',
  'IAM_POLICY_ATTACHMENT',
]);

/** Typed inventory edges: one relation each. */
const TYPED: Readonly<Record<string, string>> = {
  INVOKES: 'INVOKES',
  LOGS_TO: 'LOGS_TO',
  USES_IMAGE: 'RUNS_ON',
  ASSUMES_ROLE: 'RUNS_ON',
  GRANTS_ACCESS: 'POLICY_ALLOWS_ACTION',
  PROTECTS: 'PROTECTED_BY_WAF',
  MONITORS: 'MONITORED_BY',
  MANAGES: 'OWNED_BY',
  GOVERNS: 'COMPLIANCE_GOVERNS',
  REFERENCES: 'DEPENDS_ON',
};

/** Well-known ports that get a relation of their own. */
const PORT_RELATIONS: ReadonlyArray<readonly [number, string]> = [
  [22, 'ONLY_SSH'],
  [80, 'ONLY_HTTP'],
  [443, 'ONLY_HTTPS'],
  [3389, 'ONLY_RDP'],
];

function declaredOf(edge: NetworkEdge): string | null {
  const name = edge.relationship?.trim().toUpperCase();
  return name && isRelationType(name) ? name : null;
}

function ruleRelations(edge: NetworkEdge): string[] {
  const egress = edge.direction.toLowerCase() === 'egress';
  const out = [egress ? 'EGRESS_ALLOWED' : 'INGRESS_ALLOWED'];
  const far = egress ? edge.target_id : edge.source_id;
  if (isInternetSource(far) || isInternetSource(edge.cidr)) out.push('INTERNET_REACHABLE');
  else if (edge.cidr) out.push('CIDR_RESTRICTED');
  const ports = edgePorts(edge);
  if (ports.all) out.push('ALL_TRAFFIC');
  else {
    const named = PORT_RELATIONS.filter(([port]) => opensPort(ports, port)).map(([, rel]) => rel);
    out.push(...(named.length > 0 ? named : ['PORT_RESTRICTED']));
  }
  return out;
}

function containsRelation(source: CloudAsset | null, target: CloudAsset | null): string {
  const s = source?.asset_type ?? '';
  const t = target?.asset_type ?? '';
  if (VPC_TYPES.has(s) && SUBNET_TYPES.has(t)) return 'VPC_CONTAINS_SUBNET';
  if (SUBNET_TYPES.has(s) && target !== null && !NOT_PLACED.has(t)) return 'SUBNET_CONTAINS_INSTANCE';
  if (CLUSTER_TYPES.has(s) && SERVICE_TYPES.has(t)) return 'CLUSTER_CONTAINS_SERVICE';
  if (ORG_TYPES.has(s) && ACCOUNT_TYPES.has(t)) return 'ORG_CONTAINS_ACCOUNT';
  return 'CONTAINS';
}

function attachedRelation(target: CloudAsset | null): string {
  const t = target?.asset_type ?? '';
  if (SECURITY_GROUP_TYPES.has(t)) return 'PROTECTED_BY_SG';
  if (NACL_TYPES.has(t)) return 'PROTECTED_BY_NACL';
  return 'DEPENDS_ON';
}

function policyRelation(source: CloudAsset | null, target: CloudAsset | null): string {
  for (const end of [source, target]) {
    if (end?.asset_type === 'IAM_USER') return 'USER_HAS_POLICY';
    if (end?.asset_type === 'IAM_GROUP') return 'GROUP_HAS_POLICY';
  }
  return 'ROLE_HAS_POLICY';
}

function inferred(edge: NetworkEdge, source: CloudAsset | null, target: CloudAsset | null): string[] {
  switch (edge.edge_type) {
    case 'SECURITY_GROUP_RULE':
      return ruleRelations(edge);
    case 'NACL_RULE':
      return [];
    case 'ATTACHED_TO':
      return [attachedRelation(target)];
    case 'CONTAINS':
      return [containsRelation(source, target)];
    case 'IAM_TRUST': {
      const out = ['ROLE_ASSUMES_ROLE'];
      const a = source?.account_id;
      const b = target?.account_id;
      if (a && b && a !== b) out.push('CROSS_ACCOUNT_TRUST');
      return out;
    }
    case 'IAM_POLICY_ATTACHMENT':
      return [policyRelation(source, target)];
    case 'LOAD_BALANCER_TARGET':
      return ['LB_TARGETS_INSTANCE', 'LOAD_BALANCED_BY'];
    case 'PEERING':
      return ['VPC_PEERED'];
    case 'ROUTE':
      return ['TRANSIT_ROUTED'];
    case 'INTERNET_EXPOSED':
      return ['INTERNET_REACHABLE'];
    default: {
      const typed = TYPED[edge.edge_type];
      return typed ? [typed] : [];
    }
  }
}

/** The relations of one edge, read "source relation target", without repeats. */
export function inferRelations(
  edge: NetworkEdge,
  source: CloudAsset | null,
  target: CloudAsset | null,
): string[] {
  const declared = declaredOf(edge);
  if (declared !== null && !DECLARED_FIRST.has(edge.edge_type)) return [declared];
  const relations = inferred(edge, source, target);
  if (declared === null) return relations;
  return [declared, ...relations.filter((r) => r !== declared)];
}
