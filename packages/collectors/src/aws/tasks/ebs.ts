import { DescribeVolumesCommand } from '@aws-sdk/client-ec2';
import type { CloudAsset } from '@cloudg/catalog';
import { awsTags, buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';
import { ec2Arn } from './ec2-network.js';

/**
 * EBS volumes (the reference's `ebs_volumes` task, `storage` family): size, type, encryption and
 * state; each `ATTACHED_TO` the instance it is attached to (with the device) and
 * `ENCRYPTED_BY_KMS` its key. Metadata only: no snapshot or data is read.
 */
export const ebsTask: AwsTask = {
  name: 'ebs_volumes',
  scope: 'regional',
  async run(ctx) {
    const ec2 = ctx.client('ec2');
    const assets: CloudAsset[] = [];
    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeVolumes',
      (t, s) => ec2.send(new DescribeVolumesCommand({ NextToken: t }), { abortSignal: s }),
      (p) => p.NextToken,
    ))
      for (const v of page.Volumes ?? []) {
        if (!v.VolumeId) continue;
        assets.push(
          buildAsset({
            arn: ec2Arn(ctx, 'volume', v.VolumeId),
            name: v.Tags?.find((t) => t.Key === 'Name')?.Value || v.VolumeId,
            asset_type: 'EBS_VOLUME',
            provider: 'AWS',
            region: ctx.region,
            account_id: ctx.account,
            tags: awsTags(v.Tags),
            metadata: {
              volume_id: v.VolumeId,
              size_gib: v.Size,
              volume_type: v.VolumeType,
              encrypted: v.Encrypted ?? false,
              state: v.State,
              availability_zone: v.AvailabilityZone,
              snapshot_id: v.SnapshotId || undefined,
              multi_attach: v.MultiAttachEnabled,
            },
            relations: relations(
              ...(v.Attachments ?? []).map((a) =>
                rel(a.InstanceId && ec2Arn(ctx, 'instance', a.InstanceId), 'ATTACHED_TO', null, {
                  description: 'attached volume',
                  properties: { device: a.Device, delete_on_termination: a.DeleteOnTermination },
                }),
              ),
              rel(v.KmsKeyId, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
            ),
          }),
        );
      }
    return { assets };
  },
};
