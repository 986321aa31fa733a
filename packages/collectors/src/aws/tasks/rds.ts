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
            },
            aliases: db.Endpoint?.Address ? [db.Endpoint.Address.toLowerCase()] : [],
            relations: relations(
              ...(db.DBSubnetGroup?.Subnets ?? []).map((sn) =>
                rel(sn.SubnetIdentifier && ec2Arn(ctx, 'subnet', sn.SubnetIdentifier), 'CONTAINS', null, {
                  reverse: true,
                }),
              ),
              ...(db.VpcSecurityGroups ?? []).map((g) =>
                rel(
                  g.VpcSecurityGroupId && ec2Arn(ctx, 'security-group', g.VpcSecurityGroupId),
                  'ATTACHED_TO',
                  'PROTECTED_BY_SG',
                ),
              ),
              rel(db.KmsKeyId, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
              rel(db.MonitoringRoleArn, 'ASSUMES_ROLE', null, { description: 'enhanced monitoring role' }),
            ),
            is_internet_exposed: db.PubliclyAccessible === true,
          }),
        );
      }
    return { assets };
  },
};
