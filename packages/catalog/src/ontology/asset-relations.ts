import type { AssetMatcher } from '../dataset/asset-matcher.js';
import type { CloudAsset } from '../model/asset.js';
import { tagValueLocal } from './iri.js';

/**
 * Relations read from an asset's own tags and metadata rather than from an edge: governance
 * from `owner` / `team` / `costcenter` / `monitoring` tags, VPC containment from a shared
 * `vpc_id`, `ENCRYPTED_BY_KMS` from an encrypted asset to its key, `ROTATES_SECRET` from a
 * secret's rotation function, and `PROTECTED_BY_SG` from an instance's `security_groups`.
 */

/** An asset-level relation; `object` is an asset id, or `local` names a `cmr:` node that is not one. */
export interface AssetRelation {
  subject: string;
  relation: string;
  object: { asset: string } | { local: string };
}

const TAG_RELATIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(owner|team)$/i, 'OWNED_BY'],
  [/^cost[-_ ]?cent(er|re)$/i, 'COST_ALLOCATED_TO'],
  [/^monitoring$/i, 'MONITORED_BY'],
];

const KEY_TYPES = new Set(['KMS_KEY', 'KEY_VAULT_KEY', 'CLOUD_KMS_KEY', 'KMS_CRYPTO_KEY']);
const VPC_TYPES = new Set(['VPC', 'VNET', 'VPC_NETWORK']);
const KEY_FIELDS = [
  'kms_key_id',
  'kms_key_arn',
  'kms_master_key_id',
  'KmsKeyId',
  'kms_key',
  'encryption_key',
];
const ENCRYPTED_FLAGS = ['storage_encrypted', 'encrypted', 'encryption_enabled', 'StorageEncrypted'];
const INSTANCE_TYPES = new Set(['EC2', 'VIRTUAL_MACHINE', 'GCE_INSTANCE']);

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : null;
}

/** Keys collected as assets, findable by id, ARN, key id (the ARN tail) or alias. */
export class KeyIndex {
  readonly #byRef = new Map<string, string>();

  constructor(assets: readonly CloudAsset[]) {
    for (const a of assets) {
      if (!KEY_TYPES.has(a.asset_type)) continue;
      const refs = [a.id, a.arn, a.name, text(a.metadata.key_id), text(a.metadata.alias)];
      if (a.arn?.includes('key/')) refs.push(a.arn.slice(a.arn.lastIndexOf('key/') + 4));
      const aliases = a.metadata.aliases;
      if (Array.isArray(aliases)) for (const alias of aliases) refs.push(text(alias));
      for (const ref of refs) if (ref && !this.#byRef.has(ref)) this.#byRef.set(ref, a.id);
    }
  }

  find(ref: string): string | undefined {
    const direct = this.#byRef.get(ref);
    if (direct !== undefined) return direct;
    if (ref.includes('key/')) return this.#byRef.get(ref.slice(ref.lastIndexOf('key/') + 4));
    return undefined;
  }
}

function keyRef(asset: CloudAsset): string | null {
  for (const field of KEY_FIELDS) {
    const value = text(asset.metadata[field]);
    if (value) return value;
  }
  return null;
}

function encrypted(asset: CloudAsset, key: string | null): boolean {
  if (ENCRYPTED_FLAGS.some((f) => asset.metadata[f] === false)) return false;
  return key !== null;
}

function securityGroupRefs(asset: CloudAsset): string[] {
  const groups = asset.metadata.security_groups;
  if (!Array.isArray(groups)) return [];
  const out: string[] = [];
  for (const g of groups) {
    if (typeof g === 'string') out.push(g);
    else if (g && typeof g === 'object') {
      const rec = g as Record<string, unknown>;
      const ref = text(rec.GroupId) ?? text(rec.group_id) ?? text(rec.id) ?? text(rec.GroupName);
      if (ref) out.push(ref);
    }
  }
  return out;
}

/** The metadata-derived relations of one asset. `vpcMembers` maps a vpc_id to the assets that carry it. */
export function assetRelations(
  asset: CloudAsset,
  keys: KeyIndex,
  matcher: AssetMatcher,
  vpcMembers: ReadonlyMap<string, readonly CloudAsset[]>,
): AssetRelation[] {
  const out: AssetRelation[] = [];
  for (const [key, value] of Object.entries(asset.tags)) {
    if (!value) continue;
    for (const [pattern, relation] of TAG_RELATIONS) {
      if (pattern.test(key))
        out.push({ subject: asset.id, relation, object: { local: tagValueLocal(value) } });
    }
  }
  if (VPC_TYPES.has(asset.asset_type)) {
    const vpcId = text(asset.metadata.vpc_id) ?? asset.id;
    for (const member of vpcMembers.get(vpcId) ?? []) {
      if (member.id === asset.id || VPC_TYPES.has(member.asset_type)) continue;
      const relation = member.asset_type === 'SUBNET' ? 'VPC_CONTAINS_SUBNET' : 'CONTAINS';
      out.push({ subject: asset.id, relation, object: { asset: member.id } });
    }
  }
  const key = keyRef(asset);
  if (key !== null && encrypted(asset, key) && !KEY_TYPES.has(asset.asset_type)) {
    const found = keys.find(key);
    out.push({
      subject: asset.id,
      relation: 'ENCRYPTED_BY_KMS',
      object: found !== undefined ? { asset: found } : { local: key },
    });
  }
  const rotation = text(asset.metadata.rotation_lambda_arn);
  if (asset.asset_type === 'SECRET' && rotation) {
    const fn = matcher.find(rotation);
    if (fn) out.push({ subject: fn.id, relation: 'ROTATES_SECRET', object: { asset: asset.id } });
  }
  if (INSTANCE_TYPES.has(asset.asset_type)) {
    for (const ref of securityGroupRefs(asset)) {
      const sg = matcher.find(ref);
      if (sg && sg.id !== asset.id)
        out.push({ subject: asset.id, relation: 'PROTECTED_BY_SG', object: { asset: sg.id } });
    }
  }
  return out;
}
