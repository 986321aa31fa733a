import { DescribeDBInstancesCommand } from '@aws-sdk/client-rds';
import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';
import { ec2Arn } from './ec2-network.js';

/** RDS database instances: placement, groups, encryption and the exposure flags. */
export const rdsTask: AwsTask = {
  name: 'rds',
  scope: 'regional',
  async run(ctx) {
    const rds = ctx.client('rds');
    const assets: CloudAsset[] = [];
    for await (const page of pages(
      ctx,
      'rds',
      'DescribeDBInstances',
      (t, s) => rds.send(new DescribeDBInstancesCommand({ Marker: t }), { abortSignal: s }),
      (p) => p.Marker,
    ))
      for (const db of page.DBInstances ?? []) {
        if (!db.DBInstanceArn) continue;
        const tags: Record<string, string> = {};
        for (const t of db.TagList ?? []) if (t.Key) tags[t.Key] = t.Value ?? '';
        assets.push(
          buildAsset({
            arn: db.DBInstanceArn,
            name: db.DBInstanceIdentifier,
            asset_type: 'RDS_INSTANCE',
            provider: 'AWS',
            region: ctx.region,
            account_id: ctx.account,
            tags,
            metadata: {
              engine: db.Engine,
              engine_version: db.EngineVersion,
              instance_class: db.DBInstanceClass,
              // IAM database authentication grants (`rds-db:connect`) name this id.
              dbi_resource_id: db.DbiResourceId,
              publicly_accessible: db.PubliclyAccessible,
              storage_encrypted: db.StorageEncrypted,
              multi_az: db.MultiAZ,
              backup_retention: db.BackupRetentionPeriod,
              iam_auth: db.IAMDatabaseAuthenticationEnabled,
              endpoint: db.Endpoint?.Address,
              deletion_protection: db.DeletionProtection,
              read_replica_source: db.ReadReplicaSourceDBInstanceIdentifier,
              read_replicas: db.ReadReplicaDBInstanceIdentifiers ?? [],
            },
            aliases: db.Endpoint?.Address ? [db.Endpoint.Address.toLowerCase()] : [],
            relations: relations(
              ...(db.DBSubnetGroup?.Subnets ?? []).map((sn) =>
                rel(
                  sn.SubnetIdentifier && ec2Arn(ctx, 'subnet', sn.SubnetIdentifier),
                  'CONTAINS',
                  'SUBNET_CONTAINS_INSTANCE',
                  { reverse: true },
                ),
              ),
              ...(db.VpcSecurityGroups ?? []).map((g) =>
                rel(
                  g.VpcSecurityGroupId && ec2Arn(ctx, 'security-group', g.VpcSecurityGroupId),
                  'ATTACHED_TO',
                  'PROTECTED_BY_SG',
                ),
              ),
              rel(db.KmsKeyId, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
              rel(db.MonitoringRoleArn, 'ASSUMES_ROLE', 'RUNS_ON', {
                description: 'enhanced monitoring role',
              }),
              // Roles the instance uses for S3 import/export, Lambda and the like.
              ...(db.AssociatedRoles ?? []).map((r) =>
                rel(r.RoleArn, 'ASSUMES_ROLE', 'RUNS_ON', {
                  description: 'associated role',
                  properties: { feature: r.FeatureName, status: r.Status },
                }),
              ),
              // A replica reads from its source (an identifier here, an ARN across regions); the
              // source replicates to each of its replicas.
              rel(db.ReadReplicaSourceDBInstanceIdentifier, 'REFERENCES', 'READS_FROM', {
                description: 'read replica source',
              }),
              ...(db.ReadReplicaDBInstanceIdentifiers ?? []).map((id) =>
                rel(id, 'REFERENCES', 'REPLICATES_TO', { description: 'read replica' }),
              ),
            ),
            is_internet_exposed: db.PubliclyAccessible === true,
          }),
        );
      }
    return { assets };
  },
};
