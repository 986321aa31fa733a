import {
  GetAccountAuthorizationDetailsCommand,
  type GetAccountAuthorizationDetailsCommandOutput,
  ListAccessKeysCommand,
} from '@aws-sdk/client-iam';
import type { CloudAsset } from '@cloudg/catalog';
import { awsTags, buildAsset } from '../../model/asset-builder.js';
import { type Relation, rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';
import {
  identityPolicyRelations,
  inlinePolicyDocument,
  policyDocument,
  trustRelations,
} from '../policy-document.js';

type Details = GetAccountAuthorizationDetailsCommandOutput;

/**
 * IAM through `GetAccountAuthorizationDetails` (one paginated, read-only call returning users,
 * groups, roles with their trust policies, inline policies and instance profiles, and managed
 * policies with their default versions), plus `ListAccessKeys` per user for key metadata. The
 * documents stay in metadata where the IAM linter reads them: `assume_role_policy` (trust),
 * `policy_document` (a customer policy's default version; a role's, user's or group's inline
 * policies as one document). Key ids and dates only:
 * secrets are never returned by IAM after creation and never asked for.
 */
export const iamTask: AwsTask = {
  name: 'iam',
  scope: 'global',
  async run(ctx) {
    const iam = ctx.client('iam');
    const users: NonNullable<Details['UserDetailList']> = [];
    const roles: NonNullable<Details['RoleDetailList']> = [];
    const groups: NonNullable<Details['GroupDetailList']> = [];
    const policies: NonNullable<Details['Policies']> = [];
    for await (const page of pages(
      ctx,
      'iam',
      'GetAccountAuthorizationDetails',
      (t, s) => iam.send(new GetAccountAuthorizationDetailsCommand({ Marker: t }), { abortSignal: s }),
      (p) => (p.IsTruncated ? p.Marker : undefined),
    )) {
      users.push(...(page.UserDetailList ?? []));
      roles.push(...(page.RoleDetailList ?? []));
      groups.push(...(page.GroupDetailList ?? []));
      policies.push(...(page.Policies ?? []));
    }
    const managedGrants = new Map<string, Relation[]>();
    const assets: CloudAsset[] = [];
    for (const p of policies) {
      if (!p.Arn) continue;
      const version = (p.PolicyVersionList ?? []).find((v) => v.IsDefaultVersion);
      const grants = identityPolicyRelations(version?.Document, ctx.account);
      managedGrants.set(p.Arn, grants);
      // AWS managed policies are shared by every account; only customer ones are assets.
      if (p.Arn.includes(':iam::aws:')) continue;
      assets.push(
        buildAsset({
          arn: p.Arn,
          name: p.PolicyName,
          asset_type: 'IAM_POLICY',
          provider: 'AWS',
          account_id: ctx.account,
          metadata: {
            policy_id: p.PolicyId,
            attachment_count: p.AttachmentCount,
            default_version: p.DefaultVersionId,
            policy_document: policyDocument(version?.Document),
          },
        }),
      );
    }
    const attached = (list: { PolicyArn?: string }[] | undefined): Relation[] =>
      (list ?? []).flatMap((a) => [
        ...relations(
          rel(
            a.PolicyArn && !a.PolicyArn.includes(':iam::aws:') ? a.PolicyArn : null,
            'IAM_POLICY_ATTACHMENT',
          ),
        ),
        // The holder gets the policy's grants itself, so paths run identity -> resource directly.
        ...(a.PolicyArn ? (managedGrants.get(a.PolicyArn) ?? []) : []),
      ]);
    const inline = (list: { PolicyDocument?: string }[] | undefined): Relation[] =>
      (list ?? []).flatMap((p) => identityPolicyRelations(p.PolicyDocument, ctx.account));

    // A permissions boundary caps what the holder's policies can grant (INVENTORY_INTERNALS.md:
    // the iam task's REFERENCES / PERMISSION_BOUNDARY_LIMITS); the grants above are not cut
    // down by it, the edge says that they are capped.
    const boundary = (b: { PermissionsBoundaryArn?: string } | undefined): Relation[] =>
      relations(
        rel(b?.PermissionsBoundaryArn, 'REFERENCES', 'PERMISSION_BOUNDARY_LIMITS', {
          description: 'permissions boundary',
        }),
      );

    for (const r of roles) {
      if (!r.Arn) continue;
      const trust = trustRelations(r.AssumeRolePolicyDocument, ctx.account);
      assets.push(
        buildAsset({
          arn: r.Arn,
          name: r.RoleName,
          asset_type: 'IAM_ROLE',
          provider: 'AWS',
          account_id: ctx.account,
          tags: awsTags(r.Tags),
          metadata: {
            role_id: r.RoleId,
            path: r.Path,
            trusted_services: trust.services,
            trust_anyone: trust.anyone || undefined,
            assume_role_policy: policyDocument(r.AssumeRolePolicyDocument),
            attached_policies: (r.AttachedManagedPolicies ?? []).map((a) => a.PolicyName),
            inline_policies: (r.RolePolicyList ?? []).map((p) => p.PolicyName),
            policy_document: inlinePolicyDocument(r.RolePolicyList),
            last_used: r.RoleLastUsed?.LastUsedDate?.toISOString(),
            permissions_boundary: r.PermissionsBoundary?.PermissionsBoundaryArn,
          },
          // Instances name their instance profile; the profile's ARN is an alias of the role.
          aliases: (r.InstanceProfileList ?? []).map((ip) => ip.Arn).filter((a): a is string => !!a),
          relations: [
            ...trust.relations,
            ...attached(r.AttachedManagedPolicies),
            ...inline(r.RolePolicyList),
            ...boundary(r.PermissionsBoundary),
          ],
        }),
      );
    }
    for (const g of groups) {
      if (!g.Arn) continue;
      assets.push(
        buildAsset({
          arn: g.Arn,
          name: g.GroupName,
          asset_type: 'IAM_GROUP',
          provider: 'AWS',
          account_id: ctx.account,
          metadata: {
            group_id: g.GroupId,
            inline_policies: (g.GroupPolicyList ?? []).map((p) => p.PolicyName),
            policy_document: inlinePolicyDocument(g.GroupPolicyList),
          },
          relations: [...attached(g.AttachedManagedPolicies), ...inline(g.GroupPolicyList)],
        }),
      );
    }
    for (const u of users) {
      if (!u.Arn || !u.UserName) continue;
      const userName = u.UserName;
      const keys = await ctx.call('iam', 'ListAccessKeys', (s) =>
        iam.send(new ListAccessKeysCommand({ UserName: userName }), { abortSignal: s }),
      );
      assets.push(
        buildAsset({
          arn: u.Arn,
          name: userName,
          asset_type: 'IAM_USER',
          provider: 'AWS',
          account_id: ctx.account,
          tags: awsTags(u.Tags),
          metadata: {
            user_id: u.UserId,
            access_keys: (keys.AccessKeyMetadata ?? []).map((k) => ({
              access_key_id: k.AccessKeyId,
              status: k.Status,
              created: k.CreateDate?.toISOString(),
            })),
            groups: u.GroupList ?? [],
            inline_policies: (u.UserPolicyList ?? []).map((p) => p.PolicyName),
            policy_document: inlinePolicyDocument(u.UserPolicyList),
            permissions_boundary: u.PermissionsBoundary?.PermissionsBoundaryArn,
          },
          relations: [
            ...attached(u.AttachedManagedPolicies),
            ...inline(u.UserPolicyList),
            ...boundary(u.PermissionsBoundary),
            ...relations(
              ...(u.GroupList ?? []).map((name) =>
                rel(`arn:${ctx.partition}:iam::${ctx.account}:group/${name}`, 'CONTAINS', null, {
                  reverse: true,
                }),
              ),
            ),
          ],
        }),
      );
    }
    return { assets };
  },
};
