/**
 * The semantic relation vocabulary of the ontology: relation types grouped into the seven
 * relation groups `relation_groups` and `describe_schema` report.
 */

export const RELATION_GROUPS = [
  'NETWORK',
  'CONTAINMENT',
  'IAM',
  'DATA_FLOW',
  'SECURITY',
  'COMPUTE',
  'GOVERNANCE',
] as const;
export type RelationGroup = (typeof RELATION_GROUPS)[number];

export const RELATION_TYPES_BY_GROUP: Readonly<Record<RelationGroup, readonly string[]>> = {
  NETWORK: [
    'INGRESS_ALLOWED',
    'EGRESS_ALLOWED',
    'ALL_TRAFFIC',
    'ONLY_HTTP',
    'ONLY_HTTPS',
    'ONLY_SSH',
    'ONLY_RDP',
    'PORT_RESTRICTED',
    'INTERNET_REACHABLE',
    'ROUTES_TO',
    'PEERS_WITH',
  ],
  CONTAINMENT: [
    'CONTAINS',
    'VPC_CONTAINS_SUBNET',
    'SUBNET_CONTAINS_INSTANCE',
    'CLUSTER_CONTAINS_SERVICE',
    'ORG_CONTAINS_ACCOUNT',
    'ACCOUNT_CONTAINS_REGION',
    'LB_TARGETS_INSTANCE',
  ],
  IAM: [
    'ROLE_ASSUMES_ROLE',
    'USER_HAS_POLICY',
    'ROLE_HAS_POLICY',
    'GROUP_HAS_POLICY',
    'USER_IN_GROUP',
    'POLICY_ALLOWS_ACTION',
    'CROSS_ACCOUNT_TRUST',
    'SCP_RESTRICTS',
    'FEDERATED_BY',
    'BOUND_TO_ROLE',
  ],
  DATA_FLOW: ['READS_FROM', 'WRITES_TO', 'STREAMS_TO', 'LOGS_TO'],
  SECURITY: [
    'PROTECTED_BY_SG',
    'PROTECTED_BY_NACL',
    'PROTECTED_BY_WAF',
    'ENCRYPTED_BY_KMS',
    'FINDING_AFFECTS',
    'COMPLIANCE_GOVERNS',
  ],
  COMPUTE: ['RUNS_ON', 'TRIGGERED_BY', 'INVOKES', 'LOAD_BALANCED_BY', 'DEPENDS_ON', 'USES_IMAGE'],
  GOVERNANCE: ['TAGGED_WITH', 'OWNED_BY', 'MONITORED_BY', 'MANAGED_BY'],
};

/** Every relation type, group by group. */
export const RELATION_TYPES: readonly string[] = RELATION_GROUPS.flatMap((g) => RELATION_TYPES_BY_GROUP[g]);
