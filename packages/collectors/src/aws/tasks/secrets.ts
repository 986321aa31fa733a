import { ListSecretsCommand } from '@aws-sdk/client-secrets-manager';
import type { CloudAsset } from '@cloudg/catalog';
import { awsTags, buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';

/**
 * Secrets Manager: metadata from `ListSecrets` only. `GetSecretValue` is never called and the
 * least-privilege policy in the README does not grant it.
 */
export const secretsTask: AwsTask = {
  name: 'secretsmanager',
  scope: 'regional',
  async run(ctx) {
    const sm = ctx.client('secretsmanager');
    const assets: CloudAsset[] = [];
    for await (const page of pages(
      ctx,
      'secretsmanager',
      'ListSecrets',
      (t, s) => sm.send(new ListSecretsCommand({ NextToken: t }), { abortSignal: s }),
      (p) => p.NextToken,
    ))
      for (const sec of page.SecretList ?? []) {
        if (!sec.ARN) continue;
        assets.push(
          buildAsset({
            arn: sec.ARN,
            name: sec.Name,
            asset_type: 'SECRET',
            provider: 'AWS',
            region: ctx.region,
            account_id: ctx.account,
            tags: awsTags(sec.Tags),
            metadata: {
              rotation_enabled: sec.RotationEnabled ?? false,
              last_rotated: sec.LastRotatedDate?.toISOString(),
              last_accessed: sec.LastAccessedDate?.toISOString(),
              primary_region: sec.PrimaryRegion,
            },
            relations: relations(
              rel(sec.KmsKeyId, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
              // The reference's function -> secret INVOKES / ROTATES_SECRET (ROTATED_BY is no
              // relation type of the ontology).
              rel(sec.RotationLambdaARN, 'INVOKES', 'ROTATES_SECRET', {
                reverse: true,
                description: 'rotation function',
              }),
            ),
          }),
        );
      }
    return { assets };
  },
};
