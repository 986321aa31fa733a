import { DescribeTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';

export const dynamodbTask: AwsTask = {
  name: 'dynamodb',
  scope: 'regional',
  async run(ctx) {
    const ddb = ctx.client('dynamodb');
    const assets: CloudAsset[] = [];
    for await (const page of pages(
      ctx,
      'dynamodb',
      'ListTables',
      (t, s) => ddb.send(new ListTablesCommand({ ExclusiveStartTableName: t }), { abortSignal: s }),
      (p) => p.LastEvaluatedTableName,
    ))
      for (const TableName of page.TableNames ?? []) {
        const t = (
          await ctx.call('dynamodb', 'DescribeTable', (s) =>
            ddb.send(new DescribeTableCommand({ TableName }), { abortSignal: s }),
          )
        ).Table;
        if (!t?.TableArn) continue;
        assets.push(
          buildAsset({
            arn: t.TableArn,
            name: TableName,
            asset_type: 'DYNAMODB_TABLE',
            provider: 'AWS',
            region: ctx.region,
            account_id: ctx.account,
            metadata: {
              status: t.TableStatus,
              item_count: t.ItemCount,
              billing_mode: t.BillingModeSummary?.BillingMode,
              sse: t.SSEDescription?.SSEType,
              stream_arn: t.LatestStreamArn,
              deletion_protection: t.DeletionProtectionEnabled,
              replica_regions: (t.Replicas ?? []).map((r) => r.RegionName).filter((r) => r !== undefined),
            },
            aliases: t.LatestStreamArn ? [t.LatestStreamArn] : [],
            relations: relations(
              rel(t.SSEDescription?.KMSMasterKeyArn, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
              // A global table's other replicas: the same table name in each replica region.
              ...(t.Replicas ?? [])
                .filter((r) => r.RegionName && r.RegionName !== ctx.region)
                .map((r) =>
                  rel(
                    `arn:${ctx.partition}:dynamodb:${r.RegionName}:${ctx.account}:table/${TableName}`,
                    'REFERENCES',
                    'REPLICATES_TO',
                    { description: 'global table replica', properties: { status: r.ReplicaStatus } },
                  ),
                ),
            ),
          }),
        );
      }
    return { assets };
  },
};
