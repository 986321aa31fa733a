import {
  GetBucketEncryptionCommand,
  GetBucketLocationCommand,
  GetBucketLoggingCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketPolicyStatusCommand,
  GetBucketReplicationCommand,
  GetPublicAccessBlockCommand,
  ListBucketsCommand,
} from '@aws-sdk/client-s3';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { errorCode } from '../../governor/classify.js';
import { makeEdge } from '../../link/relationship-linker.js';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';

/** Codes that mean "this bucket has no such configuration", not a failure. */
const ABSENT = new Set([
  'NoSuchBucketPolicy',
  'ServerSideEncryptionConfigurationNotFoundError',
  'NoSuchPublicAccessBlockConfiguration',
  'ReplicationConfigurationNotFoundError',
]);

/**
 * S3 buckets: location, public status (policy status, public access block), default encryption,
 * event notifications (`INVOKES`, as the reference's example edge), server access logging
 * (`LOGS_TO` the target bucket) and replication (`REPLICATES_TO` each destination bucket,
 * `ASSUMES_ROLE` / `RUNS_ON` the replication role). A per-bucket call that is denied leaves that fact out and marks the
 * task PARTIAL rather than dropping the bucket.
 */
export const s3Task: AwsTask = {
  name: 's3',
  scope: 'global',
  async run(ctx) {
    const s3 = ctx.client('s3');
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const optional = async <T>(
      operation: string,
      bucket: string,
      fn: (s: AbortSignal) => Promise<T>,
    ): Promise<T | null> => {
      try {
        return await ctx.call('s3', operation, fn);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        if (!ABSENT.has(errorCode(error))) ctx.partial(`${operation} ${bucket}: ${errorCode(error)}`);
        return null;
      }
    };
    for await (const page of pages(
      ctx,
      's3',
      'ListBuckets',
      (t, s) => s3.send(new ListBucketsCommand({ ContinuationToken: t }), { abortSignal: s }),
      (p) => p.ContinuationToken,
    ))
      for (const b of page.Buckets ?? []) {
        const Bucket = b.Name;
        if (!Bucket) continue;
        const location = await optional('GetBucketLocation', Bucket, (s) =>
          s3.send(new GetBucketLocationCommand({ Bucket }), { abortSignal: s }),
        );
        const status = await optional('GetBucketPolicyStatus', Bucket, (s) =>
          s3.send(new GetBucketPolicyStatusCommand({ Bucket }), { abortSignal: s }),
        );
        const block = await optional('GetPublicAccessBlock', Bucket, (s) =>
          s3.send(new GetPublicAccessBlockCommand({ Bucket }), { abortSignal: s }),
        );
        const encryption = await optional('GetBucketEncryption', Bucket, (s) =>
          s3.send(new GetBucketEncryptionCommand({ Bucket }), { abortSignal: s }),
        );
        const notifications = await optional('GetBucketNotificationConfiguration', Bucket, (s) =>
          s3.send(new GetBucketNotificationConfigurationCommand({ Bucket }), { abortSignal: s }),
        );
        const logging = await optional('GetBucketLogging', Bucket, (s) =>
          s3.send(new GetBucketLoggingCommand({ Bucket }), { abortSignal: s }),
        );
        const replication = await optional('GetBucketReplication', Bucket, (s) =>
          s3.send(new GetBucketReplicationCommand({ Bucket }), { abortSignal: s }),
        );
        const logTarget = logging?.LoggingEnabled?.TargetBucket;
        const replicas = (replication?.ReplicationConfiguration?.Rules ?? []).filter(
          (r) => r.Status === 'Enabled' && r.Destination?.Bucket,
        );
        const blocked = block?.PublicAccessBlockConfiguration;
        const allBlocked = Boolean(blocked?.BlockPublicPolicy && blocked.RestrictPublicBuckets);
        const isPublic = status?.PolicyStatus?.IsPublic === true && !allBlocked;
        const rule =
          encryption?.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault;
        const asset = buildAsset({
          arn: `arn:${ctx.partition}:s3:::${Bucket}`,
          name: Bucket,
          asset_type: 'S3_BUCKET',
          provider: 'AWS',
          // GetBucketLocation answers null for us-east-1.
          region: location ? location.LocationConstraint || 'us-east-1' : 'global',
          account_id: ctx.account,
          metadata: {
            bucket_name: Bucket,
            created: b.CreationDate?.toISOString(),
            policy_is_public: status?.PolicyStatus?.IsPublic,
            public_access_block: blocked ?? undefined,
            encryption: rule?.SSEAlgorithm,
            access_logging_bucket: logTarget,
            replication_destinations:
              replicas.length > 0 ? replicas.map((r) => r.Destination?.Bucket) : undefined,
          },
          aliases: [`${Bucket}.s3.amazonaws.com`],
          relations: relations(
            rel(rule?.KMSMasterKeyID, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
            ...(notifications?.LambdaFunctionConfigurations ?? []).map((n) =>
              rel(n.LambdaFunctionArn, 'INVOKES', 'INVOKES', {
                description: 'event notification',
                properties: { events: n.Events },
              }),
            ),
            ...(notifications?.QueueConfigurations ?? []).map((n) =>
              rel(n.QueueArn, 'INVOKES', 'INVOKES', {
                description: 'event notification',
                properties: { events: n.Events },
              }),
            ),
            ...(notifications?.TopicConfigurations ?? []).map((n) =>
              rel(n.TopicArn, 'INVOKES', 'INVOKES', {
                description: 'event notification',
                properties: { events: n.Events },
              }),
            ),
            rel(logTarget && `arn:${ctx.partition}:s3:::${logTarget}`, 'LOGS_TO', 'LOGS_TO', {
              description: 'server access logs',
            }),
            rel(replication?.ReplicationConfiguration?.Role, 'ASSUMES_ROLE', 'RUNS_ON', {
              description: 'replication role',
            }),
            ...replicas.map((r) =>
              rel(r.Destination?.Bucket, 'REFERENCES', 'REPLICATES_TO', {
                description: 'replication rule',
                properties: { rule: r.ID, storage_class: r.Destination?.StorageClass },
              }),
            ),
          ),
          is_internet_exposed: isPublic,
        });
        assets.push(asset);
        if (isPublic)
          edges.push(
            makeEdge('0.0.0.0/0', asset.id, 'INTERNET_EXPOSED', {
              relationship: 'INTERNET_REACHABLE',
              cidr: '0.0.0.0/0',
              description: 'public bucket policy',
            }),
          );
      }
    return { assets, edges };
  },
};
