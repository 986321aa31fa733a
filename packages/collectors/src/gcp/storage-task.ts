import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { errorCode } from '../governor/classify.js';
import { buildAsset } from '../model/asset-builder.js';
import { rel, relations } from '../model/relation.js';
import { PolicyBinder } from './principals.js';
import { markPublic } from './public-access.js';
import type { GcsBucket, GcsIamPolicy } from './storage-api.js';
import { type GcpTask, listPages } from './tasks.js';

/** A Cloud KMS key name (`projects/p/locations/l/keyRings/r/cryptoKeys/k`) as its CAI full name. */
export function kmsKeyName(key: string | null | undefined): string | null {
  if (!key) return null;
  const relative = key
    .replace(/^\/\/cloudkms\.googleapis\.com\//, '')
    .replace(/\/cryptoKeyVersions\/.*$/, '');
  return relative.startsWith('projects/') ? `//cloudkms.googleapis.com/${relative}` : null;
}

export const bucketName = (name: string) => `//storage.googleapis.com/projects/_/buckets/${name}`;

/**
 * Cloud Storage buckets with their IAM policy. A bucket is public when a binding names
 * `allUsers` or `allAuthenticatedUsers` and public access prevention is not `enforced` (which
 * makes Google refuse such access whatever the policy says): it is marked exposed with an
 * `INTERNET_EXPOSED` edge from `0.0.0.0/0` (INVENTORY_REFERENCE.md 5.3), and, as for every IAM
 * policy (9.5), the public members make no principal. Every other member is granted access to the
 * bucket from its principal (a collected service account, else a placeholder), its roles on the
 * edge. A policy the caller may not read
 * leaves the bucket in, without grants, and the task PARTIAL.
 */
export const gcpStorageTask: GcpTask = {
  name: 'gcp_storage',
  async run(ctx) {
    const api = ctx.storage();
    const buckets = await listPages<GcsBucket>(ctx, 'storage', async (pageToken) => {
      const page = await api.listBuckets(ctx.project, pageToken, ctx.signal);
      return [page.items ?? [], page.nextPageToken ? { pageToken: page.nextPageToken } : null, page];
    });
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const binder = new PolicyBinder(ctx.collected);
    for (const bucket of buckets) {
      const name = bucket.name;
      if (!name) continue;
      ctx.signal.throwIfAborted();
      let policy: GcsIamPolicy | null = null;
      try {
        policy = await ctx.call('storage', (signal) => api.getIamPolicy(name, signal));
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        ctx.partial(`getIamPolicy ${name}: ${errorCode(error)}`);
      }
      const arn = bucketName(name);
      const iam = bucket.iamConfiguration ?? {};
      const prevention = iam.publicAccessPrevention ?? 'inherited';
      const open = binder.bind(arn, policy?.bindings);
      const publicMembers = new Set(open.map((g) => g.member));
      const exposed = publicMembers.size > 0 && prevention !== 'enforced';
      const asset = buildAsset({
        arn,
        name,
        asset_type: 'GCS_BUCKET',
        provider: 'GCP',
        region: bucket.location?.toLowerCase(),
        account_id: ctx.project,
        tags: { ...(bucket.labels ?? {}) },
        metadata: {
          location_type: bucket.locationType,
          storage_class: bucket.storageClass,
          uniform_bucket_level_access: iam.uniformBucketLevelAccess?.enabled ?? false,
          public_access_prevention: prevention,
          public_members: [...publicMembers].sort(),
          iam_policy_read: policy !== null,
          default_kms_key: bucket.encryption?.defaultKmsKeyName,
          encryption: bucket.encryption?.defaultKmsKeyName ? 'CMEK' : 'GOOGLE_MANAGED',
          versioning: bucket.versioning?.enabled ?? false,
          retention_period_seconds: bucket.retentionPolicy?.retentionPeriod,
          retention_locked: bucket.retentionPolicy?.isLocked,
          log_bucket: bucket.logging?.logBucket,
          created: bucket.timeCreated,
        },
        aliases: [`gs://${name}`, `${name}.storage.googleapis.com`],
        relations: relations(
          rel(kmsKeyName(bucket.encryption?.defaultKmsKeyName), 'REFERENCES', 'ENCRYPTED_BY_KMS'),
          rel(bucket.logging?.logBucket && bucketName(bucket.logging.logBucket), 'LOGS_TO', 'LOGS_TO'),
        ),
      });
      assets.push(asset);
      if (exposed) edges.push(...markPublic(asset, open, 'bucket IAM policy'));
    }
    assets.push(...binder.finish());
    return { assets, edges };
  },
};
