/**
 * The ontology's fixed vocabulary: the namespaces, the 64 relation types in their seven groups
 * and the data properties. Relation and data property IRIs live under `cmp:`, classes under
 * `cm:`, individuals under `cmr:`.
 */

export const CM = 'https://cloudg.io/ontology#';
export const CMP = 'https://cloudg.io/property/';
export const CMR = 'https://cloudg.io/resource/';
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const OWL = 'http://www.w3.org/2002/07/owl#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const RDF_TYPE = `${RDF}type`;

/** Prefixes predefined for SPARQL and used to compact URIs, longest namespace first when matching. */
export const PREFIXES: Readonly<Record<string, string>> = {
  cm: CM,
  cmp: CMP,
  cmr: CMR,
  rdf: RDF,
  rdfs: RDFS,
  owl: OWL,
  xsd: XSD,
};

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

/** Every relation type, group by group, in the order `relation_groups` lists them. */
export const RELATION_TYPES_BY_GROUP: Readonly<Record<RelationGroup, readonly string[]>> = {
  NETWORK: [
    'INGRESS_ALLOWED',
    'INGRESS_DENIED',
    'EGRESS_ALLOWED',
    'EGRESS_DENIED',
    'ONLY_HTTP',
    'ONLY_HTTPS',
    'ONLY_SSH',
    'ONLY_RDP',
    'ALL_TRAFFIC',
    'PORT_RESTRICTED',
    'CIDR_RESTRICTED',
    'INTERNET_REACHABLE',
    'VPC_PEERED',
    'TRANSIT_ROUTED',
    'NAT_TRANSLATED',
    'DNS_RESOLVED',
  ],
  CONTAINMENT: [
    'CONTAINS',
    'VPC_CONTAINS_SUBNET',
    'SUBNET_CONTAINS_INSTANCE',
    'REGION_CONTAINS_VPC',
    'ACCOUNT_CONTAINS_REGION',
    'ORG_CONTAINS_ACCOUNT',
    'CLUSTER_CONTAINS_SERVICE',
    'LB_TARGETS_INSTANCE',
  ],
  IAM: [
    'ROLE_ASSUMES_ROLE',
    'USER_HAS_POLICY',
    'ROLE_HAS_POLICY',
    'GROUP_HAS_POLICY',
    'POLICY_ALLOWS_ACTION',
    'POLICY_DENIES_ACTION',
    'CROSS_ACCOUNT_TRUST',
    'SERVICE_LINKED_ROLE',
    'PERMISSION_BOUNDARY_LIMITS',
    'SCP_RESTRICTS',
  ],
  DATA_FLOW: [
    'READS_FROM',
    'WRITES_TO',
    'ENCRYPTS_WITH',
    'DECRYPTS_WITH',
    'LOGS_TO',
    'STREAMS_TO',
    'REPLICATES_TO',
    'BACKUP_TO',
    'CACHE_FOR',
  ],
  SECURITY: [
    'PROTECTED_BY_SG',
    'PROTECTED_BY_NACL',
    'PROTECTED_BY_WAF',
    'ENCRYPTED_BY_KMS',
    'ROTATES_SECRET',
    'CERTIFICATE_SECURES',
    'FINDING_AFFECTS',
    'VULNERABILITY_EXPLOITS',
    'COMPLIANCE_GOVERNS',
  ],
  COMPUTE: [
    'RUNS_ON',
    'TRIGGERED_BY',
    'INVOKES',
    'SCALES_WITH',
    'LOAD_BALANCED_BY',
    'SCHEDULED_BY',
    'DEPENDS_ON',
    'SERVES_TRAFFIC_TO',
  ],
  GOVERNANCE: ['TAGGED_WITH', 'COST_ALLOCATED_TO', 'OWNED_BY', 'MONITORED_BY'],
};

/** Every relation type, group by group (64). */
export const RELATION_TYPES: readonly string[] = RELATION_GROUPS.flatMap((g) => RELATION_TYPES_BY_GROUP[g]);

const GROUP_OF = new Map<string, RelationGroup>(
  RELATION_GROUPS.flatMap((g) => RELATION_TYPES_BY_GROUP[g].map((r) => [r, g] as const)),
);

/** The group of a relation type, or undefined for a name outside the vocabulary. */
export function relationGroupOf(relation: string): RelationGroup | undefined {
  return GROUP_OF.get(relation);
}

export function isRelationType(name: string): boolean {
  return GROUP_OF.has(name);
}

/** Data properties (literal-valued), with their XSD range. */
export const DATA_PROPERTIES: Readonly<Record<string, string>> = {
  hasName: `${XSD}string`,
  hasARN: `${XSD}string`,
  hasRegion: `${XSD}string`,
  hasProvider: `${XSD}string`,
  hasAccountId: `${XSD}string`,
  hasCIDR: `${XSD}string`,
  hasPort: `${XSD}string`,
  hasProtocol: `${XSD}string`,
  hasSeverity: `${XSD}string`,
  hasRiskScore: `${XSD}decimal`,
  isInternetExposed: `${XSD}boolean`,
};

/** Classes that are not asset types: what findings, tags, frameworks, edges and placeholders are. */
export const CLOUD_RESOURCE = 'CloudResource';
export const SECURITY_FINDING = 'SecurityFinding';
export const TAG_VALUE = 'TagValue';
export const COMPLIANCE_CONTROL = 'ComplianceControl';
export const EDGE_METADATA = 'EdgeMetadata';
export const SUPPORT_CLASSES = [
  CLOUD_RESOURCE,
  SECURITY_FINDING,
  TAG_VALUE,
  COMPLIANCE_CONTROL,
  EDGE_METADATA,
];
