import { DescribeTrailsCommand, GetTrailStatusCommand } from '@aws-sdk/client-cloudtrail';
import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import type { AwsTask, AwsTaskContext } from '../context.js';
import { notEnabled, orDenied } from '../security-placeholder.js';

/**
 * CloudTrail trails whose home is this region, with logging status and destinations. A region no
 * trail records (none lives here and no multi-region trail reaches it) gets the reference's
 * not-enabled node (INVENTORY_REFERENCE.md 3.3), so the gap shows on the map and in
 * `security_coverage` instead of being silently absent. Multi-region trails of other regions are
 * listed (`includeShadowTrails`) only to tell that, not collected again. A region whose trails the
 * caller may not list gets the node too, with status `access denied`.
 */
export const cloudtrailTask: AwsTask = {
  name: 'cloudtrail',
  scope: 'regional',
  run: async (ctx) => ({
    assets: await orDenied(ctx, 'cloudtrail', 'CloudTrail', 'CLOUDTRAIL', () => trails(ctx)),
  }),
};

async function trails(ctx: AwsTaskContext): Promise<CloudAsset[]> {
  const ct = ctx.client('cloudtrail');
  const out = await ctx.call('cloudtrail', 'DescribeTrails', (s) =>
    ct.send(new DescribeTrailsCommand({ includeShadowTrails: true }), { abortSignal: s }),
  );
  const assets: CloudAsset[] = [];
  const alias = `aws-security:cloudtrail:${ctx.region}:${ctx.account}`;
  const list = out.trailList ?? [];
  const home = (t: (typeof list)[number]) => !t.HomeRegion || t.HomeRegion === ctx.region;
  for (const t of list) {
    if (!t.TrailARN || !home(t)) continue;
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
        aliases: [alias],
        relations: relations(
          rel(t.S3BucketName && `arn:${ctx.partition}:s3:::${t.S3BucketName}`, 'LOGS_TO', 'LOGS_TO'),
          rel(t.CloudWatchLogsLogGroupArn?.replace(/:\*$/, ''), 'LOGS_TO', 'LOGS_TO'),
          rel(t.KmsKeyId, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
          rel(`arn:${ctx.partition}:iam::${ctx.account}:root`, 'MONITORS'),
        ),
      }),
    );
  }
  if (!list.some((t) => home(t) || t.IsMultiRegionTrail))
    assets.push(notEnabled(ctx, 'cloudtrail', 'CloudTrail', 'CLOUDTRAIL'));
  return assets;
}
