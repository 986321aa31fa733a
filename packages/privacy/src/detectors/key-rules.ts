/**
 * Key rules: whole values chosen by the (normalised) dict key they sit under.
 */
import { TransformOptionsError } from '../errors.js';
import { isRecord } from '../util/options.js';

export interface KeyRule {
  readonly name: string;
  readonly entity: string;
  readonly category: string;
  /** Tested against the normalised key. */
  readonly pattern: RegExp;
  readonly exclude?: RegExp;
  /** The dict must also hold one of these (normalised) keys. */
  readonly requiresSibling?: readonly string[];
  /** Replace every leaf of the subtree (nested containers included). */
  readonly subtree: boolean;
  /** Numbers are replaced too, not only strings. */
  readonly scalars: boolean;
  /** A content detector matching the whole value takes precedence over the rule's entity. */
  readonly defer: boolean;
  /** Type the value by its shape (account ids). */
  readonly typedByShape: boolean;
}

const words = (list: readonly string[]): RegExp => new RegExp(`^(?:${list.join('|')})$`);

const SENSITIVE_WORDS = [
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'secrets',
  'client_secret',
  'api_key',
  'apikey',
  'access_key',
  'secret_key',
  'private_key',
  'token',
  'tokens',
  'access_token',
  'refresh_token',
  'id_token',
  'session_token',
  'auth_token',
  'bearer',
  'credential',
  'credentials',
  'authorization',
  'auth',
  'cookie',
  'cookies',
  'connection_string',
  'conn_str',
  'sas_token',
  'sas',
  'signature',
  'user_data',
  'userdata',
  'primary_key',
  'secondary_key',
  'account_key',
  'shared_key',
  'master_key',
  'admin_password',
  'kubeconfig',
  'pem',
];

/** A key contains one of the words when it appears between `_` boundaries. */
const SENSITIVE = new RegExp(`(?:^|_)(?:${SENSITIVE_WORDS.join('|')})(?:_|$)`);

const SAFE_SUFFIXES = [
  'id',
  'ids',
  'arn',
  'arns',
  'name',
  'names',
  'type',
  'types',
  'state',
  'status',
  'usage',
  'enabled',
  'last_used',
  'last_used_date',
  'last_changed',
  'last_rotated',
  'age',
  'length',
  'count',
  'policy',
  'policies',
  'rotation\\w*',
  'expir\\w*',
  'created\\w*',
  'date',
  'time',
  'version',
  'present',
  'required',
  'set',
  'configured',
  'manager',
  'source',
  'format',
  'algorithm',
  'kind',
  'ref',
  'refs',
  'location',
  'uri',
  'url',
  'endpoint',
  'header',
  'scheme',
  'method',
  'mode',
  'provider',
  'issuer',
  'audience',
  'ttl',
  'lifetime',
  'reset_required',
  'exists',
  'level',
  'size',
  'fingerprint',
  'thumbprint',
  'hint',
];
const SAFE_PREFIXES = ['has', 'is', 'num', 'requires?', 'allows?', 'enabled?', 'uses?', 'max', 'min'];
const SAFE = new RegExp(`(?:_(?:${SAFE_SUFFIXES.join('|')})$)|(?:^(?:${SAFE_PREFIXES.join('|')})_)`);

const ASSET_SIBLINGS = ['asset_type', 'arn', 'provider', 'resource_type', 'account_id', 'region'];

function rule(r: Partial<KeyRule> & Pick<KeyRule, 'name' | 'entity' | 'category' | 'pattern'>): KeyRule {
  return { subtree: false, scalars: false, defer: true, typedByShape: false, ...r };
}

export function builtinKeyRules(): KeyRule[] {
  return [
    rule({
      name: 'sensitive_key',
      entity: 'sensitive_field',
      category: 'secret',
      pattern: SENSITIVE,
      exclude: SAFE,
      subtree: true,
      scalars: true,
      defer: false,
    }),
    rule({
      name: 'account_id_key',
      entity: 'cloud_account',
      category: 'identifier',
      pattern: /^(?:aws_|cloud_)?(?:account_id|owner_id|account|account_ids|accounts)$/,
      typedByShape: true,
    }),
    rule({
      name: 'subscription_key',
      entity: 'azure_subscription_id',
      category: 'identifier',
      pattern: words(['subscription', 'subscription_id', 'azure_subscription_id']),
    }),
    rule({
      name: 'tenant_key',
      entity: 'azure_tenant_id',
      category: 'identifier',
      pattern: words(['tenant', 'tenant_id', 'azure_tenant_id']),
    }),
    rule({
      name: 'gcp_project_key',
      entity: 'gcp_project_id',
      category: 'identifier',
      pattern: words(['project', 'project_id', 'gcp_project_id']),
    }),
    rule({
      name: 'gcp_project_number_key',
      entity: 'gcp_project_number',
      category: 'identifier',
      pattern: words(['project_number']),
      scalars: true,
    }),
    rule({
      name: 'resource_name_key',
      entity: 'resource_name',
      category: 'identifier',
      pattern: words([
        'resource_name',
        'display_name',
        'bucket_name',
        'function_name',
        'instance_name',
        'cluster_name',
        'db_name',
        'database_name',
        'computer_name',
        'vm_name',
        'role_name',
        'user_name',
        'username',
        'group_name',
        'key_name',
        'table_name',
        'queue_name',
        'topic_name',
        'repository_name',
        'asset_name',
        'source_name',
        'target_name',
        'resource_names',
        'asset_names',
      ]),
    }),
    rule({
      name: 'resource_ref_key',
      entity: 'resource_name',
      category: 'identifier',
      pattern: words([
        'ref',
        'refs',
        'asset_refs?',
        'asset_ids?',
        'resource_ids?',
        'resource',
        'asset',
        'source',
        'target',
        'source_id',
        'target_id',
        'source_ref',
        'target_ref',
        'node',
        'node_id',
        'nodes',
        'from',
        'to',
        'start',
        'end',
        'via',
        'members',
        'neighbors',
        'neighbours',
        'path',
        // Tree and triple references that the original left uncovered.
        'parent',
        'parent_id',
        'parent_ref',
        'child_id',
        'children_ids',
        'subject_id',
        'object_id',
      ]),
    }),
    rule({
      name: 'dataset_key',
      entity: 'dataset_name',
      category: 'identifier',
      pattern: words([
        'dataset',
        'dataset_name',
        'datasets',
        'active_dataset',
        'base',
        'base_dataset',
        'target_dataset',
      ]),
    }),
    rule({
      name: 'dataset_listing_name_key',
      entity: 'dataset_name',
      category: 'identifier',
      pattern: /^name$/,
      requiresSibling: ['loaded_at', 'compliance_results'],
    }),
    rule({
      name: 'asset_name_key',
      entity: 'resource_name',
      category: 'identifier',
      pattern: /^name$/,
      requiresSibling: ASSET_SIBLINGS,
    }),
    rule({
      name: 'asset_id_key',
      entity: 'resource_name',
      category: 'identifier',
      pattern: /^id$/,
      requiresSibling: ASSET_SIBLINGS,
    }),
    rule({
      name: 'hostname_key',
      entity: 'hostname',
      category: 'network',
      pattern: words([
        'hostname',
        'host_name',
        'dns_name',
        'fqdn',
        'private_dns_name',
        'public_dns_name',
        'domain_name',
        'endpoint_address',
      ]),
    }),
  ];
}

const EXTRA_FIELDS = new Set([
  'name',
  'entity',
  'pattern',
  'category',
  'exclude',
  'requires_sibling',
  'subtree',
  'scalars',
  'defer',
]);

/**
 * Compiles `extra_key_rules` entries. Unlike the original (where custom rules could not defer),
 * `defer: true` lets a content detector that matches the whole value take precedence.
 */
export function compileExtraKeyRule(transform: string, raw: unknown): KeyRule {
  if (!isRecord(raw)) throw new TransformOptionsError(transform, 'each extra key rule must be a mapping');
  for (const k of Object.keys(raw)) {
    if (!EXTRA_FIELDS.has(k)) {
      throw new TransformOptionsError(transform, `unknown key rule option '${k}'`, { option: k });
    }
  }
  const { name, entity, pattern } = raw;
  if (typeof name !== 'string' || typeof entity !== 'string' || typeof pattern !== 'string') {
    throw new TransformOptionsError(transform, "a key rule needs 'name', 'entity' and 'pattern' strings");
  }
  const compile = (src: string, field: string): RegExp => {
    try {
      return new RegExp(src);
    } catch {
      throw new TransformOptionsError(transform, `key rule '${name}' has an invalid ${field} regex`, {
        rule: name,
        field,
      });
    }
  };
  const sib = raw.requires_sibling;
  const siblings = sib === undefined || sib === null ? undefined : typeof sib === 'string' ? [sib] : sib;
  if (siblings !== undefined && (!Array.isArray(siblings) || siblings.some((s) => typeof s !== 'string'))) {
    throw new TransformOptionsError(transform, `key rule '${name}': requires_sibling must be a list of keys`);
  }
  return {
    name,
    entity,
    category: typeof raw.category === 'string' ? raw.category : 'secret',
    pattern: compile(pattern, 'pattern'),
    ...(typeof raw.exclude === 'string' ? { exclude: compile(raw.exclude, 'exclude') } : {}),
    ...(siblings ? { requiresSibling: siblings as string[] } : {}),
    subtree: raw.subtree === true,
    scalars: raw.scalars === true,
    defer: raw.defer === true,
    typedByShape: false,
  };
}

const GCP_PROJECT = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const GUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Entity of a value found under an account key, typed by its shape. */
export function accountEntityFor(value: string): string {
  if (/^\d{12}$/.test(value)) return 'aws_account_id';
  if (GUID_RE.test(value)) return 'azure_subscription_id';
  if (/^\d+$/.test(value)) return 'gcp_project_number';
  if (GCP_PROJECT.test(value)) return 'gcp_project_id';
  return 'cloud_account';
}

const TAG_MAP_KEYS = new Set([
  'tags',
  'labels',
  'tag',
  'resource_tags',
  'user_labels',
  'tag_set',
  'tag_list',
]);

/** True when a normalised key names a tag map. */
export function isTagMapKey(normalizedKey: string): boolean {
  return TAG_MAP_KEYS.has(normalizedKey);
}

const PERSON_KEY =
  /(?:^|_)(?:owner|owners|created_by|creator|contact|email|e_mail|mail|maintainer|author|requester|requested_by|user|username|user_name|team_lead|lead|manager|assignee|responsible|approver|modified_by|updated_by)(?:_|$)/;

/** True when a (normalised) tag key names a person. */
export function isPersonTagKey(normalizedKey: string): boolean {
  return PERSON_KEY.test(normalizedKey);
}

export const DEFAULT_TAG_KEY_ALLOWLIST: readonly string[] = [
  'env',
  'environment',
  'stage',
  'tier',
  'managed_by',
  'terraform',
  'cost_center',
  'project_type',
  'application_tier',
  'criticality',
  'data_classification',
  'compliance',
  'backup',
  'patch_group',
];
