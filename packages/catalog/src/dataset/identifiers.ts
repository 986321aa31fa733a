/**
 * The identifiers a dataset holds, by value: what a policy that pseudonymises identifiers must
 * recognise wherever it meets them (as a field, an object key, a word in a description), not
 * only under keys that happen to say "name". The workspace lists these for the layer (core's
 * `IdentifierSource`); the policy turns them into its lexicon.
 *
 * Entities match those the privacy key rules and detectors give the same values, so one value
 * gets one pseudonym whichever way it is found: asset ids and names are `resource_name`, ARNs
 * `aws_arn`, Azure resource ids `azure_resource_id`, accounts typed by their shape, tag values
 * `tag_value`, dataset names `dataset_name`.
 */
import { SEVERITIES } from '../model/severity.js';
import { PROVIDERS } from '../model/vocabulary.js';
import type { Dataset } from './dataset.js';

export type IdentifierEntry = readonly [value: string, entity: string];

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AWS_ACCOUNT = /^\d{12}$/;

/**
 * Words of the catalog's own vocabulary, which are never identifiers even when a tag value or
 * a name happens to equal one (pseudonymising `aws` or `HIGH` would garble every result).
 */
const VOCABULARY: ReadonlySet<string> = new Set([
  // The field names of the catalog's results: a tag value planted as `items` or `total` must not
  // rename those keys in every result it would otherwise match.
  ...'id name type title kind uri arn tags metadata dataset datasets items total returned offset truncated next_cursor cursor limit key value values assets edges findings regions accounts providers provider region account_id asset_id asset_name asset_type asset_types source target relations outgoing incoming groups group_by group_count summary severity status count added removed changed unchanged new resolved base active active_dataset loaded loaded_at version cached description path parent_id ous roots policies valid suggestions message code top_values distinct_values edge_type findings_count open_findings max_severity risk_score internet_exposed'.split(
    ' ',
  ),
  // Words so common in cloud data that a whole value equal to one identifies nothing (every AWS
  // VPC has a security group named `default`, and instance tenancy is `default` too).
  'default',
  ...PROVIDERS,
  ...PROVIDERS.map((p) => p.toLowerCase()),
  ...SEVERITIES,
  ...SEVERITIES.map((s) => s.toLowerCase()),
  'global',
  'PASS',
  'FAIL',
  'ERROR',
  'ACTIVE',
  'NOT_APPLICABLE',
  'MANUAL',
]);

/** The entity of a resource reference, by its shape. */
function referenceEntity(value: string): string {
  if (value.startsWith('arn:')) return 'aws_arn';
  if (value.toLowerCase().startsWith('/subscriptions/')) return 'azure_resource_id';
  return 'resource_name';
}

/** The entity of an account, subscription or project id, by its shape and provider. */
function accountEntity(value: string, provider: string): string {
  if (AWS_ACCOUNT.test(value)) return 'aws_account_id';
  if (GUID.test(value)) return 'azure_subscription_id';
  const p = provider.toLowerCase();
  if (p === 'gcp') return 'gcp_project_id';
  if (p === 'azure') return 'azure_subscription_id';
  return 'cloud_account';
}

/**
 * Every identifier of `dataset`, most specific entities first (the first listing of a value
 * decides its entity): ARNs and accounts, then asset ids and names, the organization, findings'
 * resources, and tag values last. Words of the catalog's vocabulary, regions and asset types are
 * left out.
 */
export function datasetIdentifiers(dataset: Dataset): readonly IdentifierEntry[] {
  return dataset.derived('identifiers', buildIdentifiers);
}

function buildIdentifiers(dataset: Dataset): IdentifierEntry[] {
  const specific: IdentifierEntry[] = [];
  const names: IdentifierEntry[] = [];
  const tags: IdentifierEntry[] = [];
  const vocabulary = new Set<string>(VOCABULARY);
  for (const a of dataset.assets) {
    vocabulary.add(a.asset_type);
    vocabulary.add(a.region);
  }
  for (const [provider, regions] of Object.entries(dataset.regions)) {
    vocabulary.add(provider);
    for (const r of regions) vocabulary.add(r);
  }

  for (const a of dataset.assets) {
    if (a.arn) specific.push([a.arn, 'aws_arn']);
    if (a.account_id) specific.push([a.account_id, accountEntity(a.account_id, a.provider)]);
    names.push([a.id, referenceEntity(a.id)]);
    if (a.name) names.push([a.name, referenceEntity(a.name)]);
    for (const value of Object.values(a.tags)) if (typeof value === 'string') tags.push([value, 'tag_value']);
  }

  const org = dataset.organization;
  if (org) {
    for (const id of [org.management_account_id, org.caller_account_id]) {
      if (id) specific.push([id, accountEntity(id, 'aws')]);
    }
    if (org.organization_arn) specific.push([org.organization_arn, 'aws_arn']);
    for (const account of Object.values(org.accounts)) {
      specific.push([account.id, accountEntity(account.id, 'aws')]);
      if (account.arn) specific.push([account.arn, 'aws_arn']);
      if (account.email) specific.push([account.email, 'email']);
      names.push([account.name, 'resource_name']);
    }
    for (const unit of [...org.roots, ...Object.values(org.ous)]) {
      if (unit.arn) specific.push([unit.arn, 'aws_arn']);
      names.push([unit.id, 'resource_name']);
      names.push([unit.name, 'resource_name']);
    }
  }

  for (const f of dataset.findings) {
    if (f.resource_arn) specific.push([f.resource_arn, 'aws_arn']);
    if (f.account_id) specific.push([f.account_id, accountEntity(f.account_id, '')]);
    if (f.resource_id) names.push([f.resource_id, referenceEntity(f.resource_id)]);
  }

  return [...specific, ...names, ...tags].filter(([value]) => !vocabulary.has(value));
}
