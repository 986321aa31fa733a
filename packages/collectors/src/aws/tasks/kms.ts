import {
  DescribeKeyCommand,
  GetKeyPolicyCommand,
  ListAliasesCommand,
  ListKeysCommand,
} from '@aws-sdk/client-kms';
import type { CloudAsset } from '@cloudg/catalog';
import { errorCode } from '../../governor/classify.js';
import { buildAsset } from '../../model/asset-builder.js';
import { type AwsTask, pages } from '../context.js';
import { resourcePolicyGrants } from '../policy-document.js';

/**
 * KMS keys; their aliases become identifiers so `alias/...` references resolve to the key. A
 * customer managed key's policy is read for the principals it grants (the reference's
 * `GRANTS_ACCESS` for KMS), cross-account ones included; AWS managed keys have AWS's fixed
 * policy and are not asked. A policy the caller may not read leaves the key without grants and
 * the task PARTIAL.
 */
export const kmsTask: AwsTask = {
  name: 'kms',
  scope: 'regional',
  async run(ctx) {
    const kms = ctx.client('kms');
    const aliases = new Map<string, string[]>();
    for await (const page of pages(
      ctx,
      'kms',
      'ListAliases',
      (t, s) => kms.send(new ListAliasesCommand({ Marker: t }), { abortSignal: s }),
      (p) => (p.Truncated ? p.NextMarker : undefined),
    ))
      for (const a of page.Aliases ?? [])
        if (a.TargetKeyId && a.AliasArn)
          aliases.set(a.TargetKeyId, [...(aliases.get(a.TargetKeyId) ?? []), a.AliasArn, a.AliasName ?? '']);
    const assets: CloudAsset[] = [];
    for await (const page of pages(
      ctx,
      'kms',
      'ListKeys',
      (t, s) => kms.send(new ListKeysCommand({ Marker: t }), { abortSignal: s }),
      (p) => (p.Truncated ? p.NextMarker : undefined),
    ))
      for (const k of page.Keys ?? []) {
        const KeyId = k.KeyId;
        if (!KeyId || !k.KeyArn) continue;
        const d = (
          await ctx.call('kms', 'DescribeKey', (s) =>
            kms.send(new DescribeKeyCommand({ KeyId }), { abortSignal: s }),
          )
        ).KeyMetadata;
        const keyAliases = (aliases.get(KeyId) ?? []).filter(Boolean);
        let policy: string | undefined;
        if (d?.KeyManager === 'CUSTOMER')
          try {
            policy = (
              await ctx.call('kms', 'GetKeyPolicy', (s) =>
                kms.send(new GetKeyPolicyCommand({ KeyId, PolicyName: 'default' }), { abortSignal: s }),
              )
            ).Policy;
          } catch (error) {
            if (ctx.signal.aborted) throw error;
            ctx.partial(`GetKeyPolicy ${KeyId}: ${errorCode(error)}`);
          }
        const grants = resourcePolicyGrants(policy, ctx.account);
        assets.push(
          buildAsset({
            arn: k.KeyArn,
            name: keyAliases.find((a) => a.startsWith('alias/'))?.slice(6) ?? KeyId,
            asset_type: 'KMS_KEY',
            provider: 'AWS',
            region: ctx.region,
            account_id: ctx.account,
            metadata: {
              key_id: KeyId,
              key_manager: d?.KeyManager,
              key_state: d?.KeyState,
              key_usage: d?.KeyUsage,
              key_spec: d?.KeySpec,
              origin: d?.Origin,
              multi_region: d?.MultiRegion,
              key_policy_read: d?.KeyManager === 'CUSTOMER' ? policy !== undefined : undefined,
              policy_allows_public: grants.public || undefined,
            },
            aliases: keyAliases.filter((a) => a.startsWith('arn:')),
            relations: grants.relations,
          }),
        );
      }
    return { assets };
  },
};
