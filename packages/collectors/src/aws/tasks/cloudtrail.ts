import { DescribeTrailsCommand, GetTrailStatusCommand } from '@aws-sdk/client-cloudtrail';
import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import type { AwsTask } from '../context.js';

/** CloudTrail trails whose home is this region, with logging status and destinations. */
export const cloudtrailTask: AwsTask = {
  name: 'cloudtrail',
  scope: 'regional',
  async run(ctx) {
    const ct = ctx.client('cloudtrail');
    const out = await ctx.call('cloudtrail', 'DescribeTrails', (s) =>
      ct.send(new DescribeTrailsCommand({ includeShadowTrails: false }), { abortSignal: s }),
    );
    const assets: CloudAsset[] = [];
    for (const t of out.trailList ?? []) {
      if (!t.TrailARN || (t.HomeRegion && t.HomeRegion !== ctx.region)) continue;
      const Name = t.TrailARN;
      const status = await ctx.call('cloudtrail', 'GetTrailStatus', (s) =>
        ct.send(new GetTrailStatusCommand({ Name }), { abortSignal: s }),
      );
      assets.push(
        buildAsset({
          arn: t.TrailARN,
          name: t.Name,
          asset_type: 'CLOUDTRAIL',
          provider: 'AWS',
          region: ctx.region,
          account_id: ctx.account,
          metadata: {
            security_service: 'cloudtrail',
            enabled: status.IsLogging === true,
            is_multi_region: t.IsMultiRegionTrail,
            is_organization_trail: t.IsOrganizationTrail,
            log_file_validation: t.LogFileValidationEnabled,
          },
          relations: relations(
            rel(t.S3BucketName && `arn:${ctx.partition}:s3:::${t.S3BucketName}`, 'LOGS_TO', 'LOGS_TO'),
            rel(t.CloudWatchLogsLogGroupArn?.replace(/:\*$/, ''), 'LOGS_TO', 'LOGS_TO'),
            rel(t.KmsKeyId, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
            rel(`arn:${ctx.partition}:iam::${ctx.account}:root`, 'MONITORS'),
          ),
        }),
      );
    }
    return { assets };
  },
};
