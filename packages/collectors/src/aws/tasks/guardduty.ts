import { GetDetectorCommand, ListDetectorsCommand } from '@aws-sdk/client-guardduty';
import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AwsTask, type AwsTaskContext, arnOf, pages } from '../context.js';
import { notEnabled, orDenied } from '../security-placeholder.js';

/**
 * GuardDuty status. A region without a detector gets the reference's not-enabled placeholder
 * (INVENTORY_REFERENCE.md 3.3), so security coverage can name the gap; one whose detectors the
 * caller may not list gets it too, with status `access denied`.
 */
export const guarddutyTask: AwsTask = {
  name: 'guardduty',
  scope: 'regional',
  run: async (ctx) => ({
    assets: await orDenied(ctx, 'guardduty', 'GuardDuty', 'THREAT_DETECTOR', () => detectors(ctx)),
  }),
};

async function detectors(ctx: AwsTaskContext): Promise<CloudAsset[]> {
  const gd = ctx.client('guardduty');
  const assets: CloudAsset[] = [];
  const alias = `aws-security:guardduty:${ctx.region}:${ctx.account}`;
  const accountArn = `arn:${ctx.partition}:iam::${ctx.account}:root`;
  for await (const page of pages(
    ctx,
    'guardduty',
    'ListDetectors',
    (t, s) => gd.send(new ListDetectorsCommand({ NextToken: t }), { abortSignal: s }),
    (p) => p.NextToken,
  ))
    for (const DetectorId of page.DetectorIds ?? []) {
      const d = await ctx.call('guardduty', 'GetDetector', (s) =>
        gd.send(new GetDetectorCommand({ DetectorId }), { abortSignal: s }),
      );
      assets.push(
        buildAsset({
          arn: arnOf(ctx, 'guardduty', `detector/${DetectorId}`),
          name: `guardduty-${DetectorId}`,
          asset_type: 'THREAT_DETECTOR',
          provider: 'AWS',
          region: ctx.region,
          account_id: ctx.account,
          metadata: {
            security_service: 'guardduty',
            enabled: d.Status === 'ENABLED',
            status: d.Status,
            detector_id: DetectorId,
          },
          aliases: [alias],
          relations: relations(rel(accountArn, 'MONITORS', 'MONITORED_BY')),
        }),
      );
    }
  if (assets.length === 0) assets.push(notEnabled(ctx, 'guardduty', 'GuardDuty', 'THREAT_DETECTOR'));
  return assets;
}
