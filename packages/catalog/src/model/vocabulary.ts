/**
 * Closed vocabularies of the data model. Edge types and providers are closed sets; asset types
 * are open (a collector may add a type), so they are validated as strings and listed from data.
 */

/**
 * Case-insensitive, with `-` and spaces read as `_`: how every enumerated argument and every
 * scanner's severity word is compared with a vocabulary.
 */
export function normaliseEnumValue(value: string): string {
  return value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
}

export const PROVIDERS = ['AWS', 'AZURE', 'GCP'] as const;
export type CloudProvider = (typeof PROVIDERS)[number];

/** Every `edge_type`, in the order the reference's edge table lists them. */
export const EDGE_TYPES = [
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
  'USES_IMAGE',
  'ASSUMES_ROLE',
  'LOGS_TO',
  'GRANTS_ACCESS',
  'INVOKES',
  'PROTECTS',
  'MONITORS',
  'MANAGES',
  'GOVERNS',
] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** Asset types that describe where things live rather than what they are. */
export const HIERARCHY_ASSET_TYPES: ReadonlySet<string> = new Set([
  'ORGANIZATION',
  'ORG_UNIT',
  'CLOUD_ACCOUNT',
]);

/** Dataset kinds a loader can produce, plus the kinds the workspace assigns itself. */
export const LOADER_KINDS = [
  'inventory',
  'report',
  'generic',
  'prowler',
  'scoutsuite',
  'checkov',
  'trivy',
] as const;
export type LoaderKind = (typeof LOADER_KINDS)[number];
export type DatasetKind = LoaderKind | 'live' | 'snapshot';
