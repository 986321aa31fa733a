/**
 * How to read each edge type: the verb (source verb target), typical endpoints and how the
 * dependency analysis orients it. Which ontology relations an edge type becomes is the
 * ontology's business; `../edge-relations.ts` reads it from the ontology's rules.
 */
import type { EdgeType } from '../../../model/vocabulary.js';

export type DependencyDirection = 'forward' | 'reverse' | 'none';

export interface EdgeTypeInfo {
  edge_type: EdgeType;
  reads_as: string;
  typical: string;
  note: string;
  dependency_direction: DependencyDirection;
}

type Row = Omit<EdgeTypeInfo, 'edge_type'> & { verb: string };

const ROWS: Record<EdgeType, Omit<Row, 'reads_as'>> = {
  SECURITY_GROUP_RULE: {
    verb: 'allows traffic',
    typical: 'CIDR -> security group (ingress), security group -> CIDR (egress)',
    note: 'one firewall rule of a security group or NSG, with ports, protocol and CIDR',
    dependency_direction: 'none',
  },
  NACL_RULE: {
    verb: 'allows traffic',
    typical: 'network ACL rules between a CIDR and a subnet ACL',
    note: 'one stateless network ACL rule',
    dependency_direction: 'none',
  },
  ROUTE: {
    verb: 'routes through / forwards to',
    typical: 'route table -> gateway, DNS record -> load balancer, Ingress -> Service',
    note: 'traffic is forwarded from source to target',
    dependency_direction: 'forward',
  },
  IAM_TRUST: {
    verb: 'may assume',
    typical: 'principal, account or identity provider -> role',
    note: 'trust policy of the target role names the source',
    dependency_direction: 'forward',
  },
  IAM_POLICY_ATTACHMENT: {
    verb: 'has policy',
    typical: 'user / group / role -> managed policy',
    note: 'managed policy attached to an identity',
    dependency_direction: 'forward',
  },
  CONTAINS: {
    verb: 'contains',
    typical: 'VPC -> subnet, subnet -> instance, account -> resource',
    // The enum comment the reference's explain_edge_type example shows.
    note: 'VPC contains Subnet',
    dependency_direction: 'reverse',
  },
  PEERING: {
    verb: 'peers with',
    typical: 'VPC -> peering connection -> VPC',
    note: 'private connectivity between two networks',
    dependency_direction: 'forward',
  },
  LOAD_BALANCER_TARGET: {
    verb: 'sends traffic to',
    typical: 'load balancer -> target group -> instance / IP / function',
    note: 'the source balances requests over the target',
    dependency_direction: 'forward',
  },
  INTERNET_EXPOSED: {
    verb: 'exposes',
    typical: '0.0.0.0/0 -> exposed asset',
    note: 'the internet placeholder reaches the target directly',
    dependency_direction: 'none',
  },
  ATTACHED_TO: {
    verb: 'is attached to',
    typical: 'instance -> security group, volume -> instance, gateway -> VPC',
    note: 'the source is bound to the target and stops working without it',
    dependency_direction: 'forward',
  },
  REFERENCES: {
    verb: 'uses / points at',
    typical: 'function -> secret, table -> KMS key, queue -> dead-letter queue',
    note: 'generic use of one resource by another',
    dependency_direction: 'forward',
  },
  USES_IMAGE: {
    verb: 'runs the image of',
    typical: 'task definition / workload / function -> container registry',
    note: 'compute pulls its image from the target registry',
    dependency_direction: 'forward',
  },
  ASSUMES_ROLE: {
    verb: 'runs as',
    typical: 'function, task, node group, instance profile -> role / service account',
    // The enum comment the reference's explain_edge_type example shows.
    note: 'compute or service account -> IAM role it runs as',
    dependency_direction: 'forward',
  },
  LOGS_TO: {
    verb: 'sends logs to',
    typical: 'trail, flow log, load balancer, function -> log destination',
    note: 'the target receives the source logs',
    dependency_direction: 'forward',
  },
  GRANTS_ACCESS: {
    verb: 'is granted access to',
    typical: 'principal -> resource its policy names, Azure principal -> scope',
    note: 'a policy lets the source act on the target',
    dependency_direction: 'forward',
  },
  INVOKES: {
    verb: 'triggers / calls',
    typical: 'bucket -> function, queue -> function, rule -> target',
    note: 'an event on the source runs the target',
    dependency_direction: 'reverse',
  },
  PROTECTS: {
    verb: 'protects',
    typical: 'WAF -> load balancer / API / distribution, firewall -> VPC',
    note: 'the source filters traffic reaching the target',
    dependency_direction: 'reverse',
  },
  MONITORS: {
    verb: 'monitors',
    typical: 'threat detector -> account, scanner -> instance, alarm -> resource',
    note: 'a security or monitoring service watches the target',
    dependency_direction: 'reverse',
  },
  MANAGES: {
    verb: 'manages',
    typical: 'stack -> resource, scaling group -> instance, landing zone -> account',
    note: 'the source creates or controls the lifecycle of the target',
    dependency_direction: 'reverse',
  },
  GOVERNS: {
    verb: 'governs',
    typical: 'SCP / org policy / control -> OU, account, folder, project',
    note: 'a guardrail policy limits what the target may do',
    dependency_direction: 'reverse',
  },
};

/** The order `describe_schema` lists edge types in: network first, then structure, then data. */
export const EDGE_TYPE_ORDER: readonly EdgeType[] = [
  'SECURITY_GROUP_RULE',
  'NACL_RULE',
  'ROUTE',
  'IAM_TRUST',
  'IAM_POLICY_ATTACHMENT',
  'CONTAINS',
  'PEERING',
  'LOAD_BALANCER_TARGET',
  'INTERNET_EXPOSED',
  'ATTACHED_TO',
  'REFERENCES',
  'INVOKES',
  'USES_IMAGE',
  'ASSUMES_ROLE',
  'GRANTS_ACCESS',
  'LOGS_TO',
  'PROTECTS',
  'MONITORS',
  'MANAGES',
  'GOVERNS',
];

/** Edge type -> its verb. */
export function edgeTypeVerbs(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const type of EDGE_TYPE_ORDER) out[type] = ROWS[type].verb;
  return out;
}

export function edgeTypeInfo(type: EdgeType): EdgeTypeInfo {
  const { verb, ...row } = ROWS[type];
  return {
    edge_type: type,
    reads_as: `source ${verb} target`,
    typical: row.typical,
    note: row.note,
    dependency_direction: row.dependency_direction,
  };
}

/** How dependency analysis orients an edge of this type; `none` for types it ignores or does not know. */
export function dependencyDirection(type: string): DependencyDirection {
  return (ROWS as Record<string, Omit<Row, 'reads_as'> | undefined>)[type]?.dependency_direction ?? 'none';
}
