import {
  DescribeOrganizationCommand,
  ListAccountsForParentCommand,
  ListOrganizationalUnitsForParentCommand,
  ListPoliciesCommand,
  ListRootsCommand,
  ListTargetsForPolicyCommand,
} from '@aws-sdk/client-organizations';
import { type CloudAsset, OrganizationTopologySchema } from '@cloudg/catalog';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';

/**
 * AWS Organizations from the management (or a delegated administrator) account: the
 * organization, its OUs, accounts and service control policies, linked parent CONTAINS child and
 * policy GOVERNS target. Run by the caller account only; an account outside an organization
 * is denied (`AWSOrganizationsNotInUseException`) and reported in coverage.
 */
export const organizationsTask: AwsTask = {
  name: 'organizations',
  scope: 'global',
  async run(ctx) {
    const org = ctx.client('organizations');
    const o = (
      await ctx.call('organizations', 'DescribeOrganization', (s) =>
        org.send(new DescribeOrganizationCommand({}), { abortSignal: s }),
      )
    ).Organization;
    if (!o?.Arn || !o.Id) return { assets: [] };
    const assets: CloudAsset[] = [];
    const master = o.MasterAccountId ?? ctx.account;
    assets.push(
      buildAsset({
        arn: o.Arn,
        name: o.Id,
        asset_type: 'ORGANIZATION',
        provider: 'AWS',
        account_id: master,
        metadata: { organization_id: o.Id, management_account_id: master, feature_set: o.FeatureSet },
        aliases: [o.Id],
        // The management account owns the organization (INVENTORY_REFERENCE.md 18).
        relations: relations(
          rel(`arn:${ctx.partition}:iam::${master}:root`, 'MANAGES', 'OWNED_BY', {
            reverse: true,
            description: 'management account',
          }),
        ),
      }),
    );
    const roots: { id: string; arn: string; name: string }[] = [];
    for await (const page of pages(
      ctx,
      'organizations',
      'ListRoots',
      (t, s) => org.send(new ListRootsCommand({ NextToken: t }), { abortSignal: s }),
      (p) => p.NextToken,
    ))
      for (const r of page.Roots ?? [])
        if (r.Id && r.Arn) roots.push({ id: r.Id, arn: r.Arn, name: r.Name ?? 'Root' });
    // The topology of inventory-organization.json (INVENTORY_REFERENCE.md 17), built alongside.
    const topologyOus: Record<string, unknown> = {};
    const topologyAccounts: Record<string, unknown> = {};
    const topologyPolicies: unknown[] = [];
    const paths = new Map<string, string[]>(roots.map((r) => [r.id, []]));
    // The root is not an asset of its own: top-level OUs and accounts hang from the organization.
    const queue = roots.map((r) => ({ parentId: r.id, parentArn: o.Arn as string }));
    const rootIds = new Set(roots.map((r) => r.id));
    while (queue.length > 0) {
      const { parentId, parentArn } = queue.shift() as { parentId: string; parentArn: string };
      for await (const page of pages(
        ctx,
        'organizations',
        'ListOrganizationalUnitsForParent',
        (t, s) =>
          org.send(new ListOrganizationalUnitsForParentCommand({ ParentId: parentId, NextToken: t }), {
            abortSignal: s,
          }),
        (p) => p.NextToken,
      ))
        for (const ou of page.OrganizationalUnits ?? []) {
          if (!ou.Id || !ou.Arn) continue;
          const path = [...(paths.get(parentId) ?? []), ou.Name ?? ou.Id];
          paths.set(ou.Id, path);
          assets.push(
            buildAsset({
              arn: ou.Arn,
              name: ou.Name,
              asset_type: 'ORG_UNIT',
              provider: 'AWS',
              account_id: master,
              metadata: { ou_id: ou.Id, parent_id: parentId, is_root: false, path },
              aliases: [ou.Id],
              relations: relations(rel(parentArn, 'CONTAINS', null, { reverse: true })),
            }),
          );
          queue.push({ parentId: ou.Id, parentArn: ou.Arn });
          topologyOus[ou.Id] = {
            id: ou.Id,
            name: ou.Name ?? ou.Id,
            arn: ou.Arn,
            parent_id: parentId,
            path,
            is_root: false,
          };
        }
      for await (const page of pages(
        ctx,
        'organizations',
        'ListAccountsForParent',
        (t, s) =>
          org.send(new ListAccountsForParentCommand({ ParentId: parentId, NextToken: t }), {
            abortSignal: s,
          }),
        (p) => p.NextToken,
      ))
        for (const a of page.Accounts ?? []) {
          if (!a.Id) continue;
          assets.push(
            buildAsset({
              arn: `arn:${ctx.partition}:iam::${a.Id}:root`,
              name: a.Name ?? a.Id,
              asset_type: 'CLOUD_ACCOUNT',
              provider: 'AWS',
              account_id: a.Id,
              metadata: {
                account_id: a.Id,
                status: a.State ?? a.Status,
                ou_path: paths.get(parentId) ?? [],
                email: a.Email,
                joined_method: a.JoinedMethod,
                joined: a.JoinedTimestamp?.toISOString(),
                management_account: a.Id === master,
                parent_id: parentId,
              },
              aliases: [...(a.Arn ? [a.Arn] : []), a.Id],
              relations: relations(rel(parentArn, 'CONTAINS', 'ORG_CONTAINS_ACCOUNT', { reverse: true })),
            }),
          );
          topologyAccounts[a.Id] = {
            id: a.Id,
            name: a.Name ?? a.Id,
            arn: a.Arn,
            status: a.State ?? a.Status ?? 'ACTIVE',
            parent_id: parentId,
            ou_path: paths.get(parentId) ?? [],
            email: a.Email,
            joined_method: a.JoinedMethod,
            joined: a.JoinedTimestamp?.toISOString(),
          };
        }
    }
    for await (const page of pages(
      ctx,
      'organizations',
      'ListPolicies',
      (t, s) =>
        org.send(new ListPoliciesCommand({ Filter: 'SERVICE_CONTROL_POLICY', NextToken: t }), {
          abortSignal: s,
        }),
      (p) => p.NextToken,
    ))
      for (const p of page.Policies ?? []) {
        const PolicyId = p.Id;
        if (!PolicyId || !p.Arn) continue;
        const targets: string[] = [];
        const rawTargets: string[] = [];
        for await (const tp of pages(
          ctx,
          'organizations',
          'ListTargetsForPolicy',
          (t, s) => org.send(new ListTargetsForPolicyCommand({ PolicyId, NextToken: t }), { abortSignal: s }),
          (x) => x.NextToken,
        ))
          for (const target of tp.Targets ?? []) {
            if (!target.TargetId) continue;
            rawTargets.push(target.TargetId);
            if (rootIds.has(target.TargetId)) targets.push(o.Arn);
            else if (target.Type === 'ACCOUNT')
              targets.push(`arn:${ctx.partition}:iam::${target.TargetId}:root`);
            else if (target.Arn) targets.push(target.Arn);
          }
        topologyPolicies.push({
          id: PolicyId,
          name: p.Name ?? PolicyId,
          arn: p.Arn,
          type: p.Type ?? 'SERVICE_CONTROL_POLICY',
          aws_managed: p.AwsManaged ?? false,
          targets: rawTargets,
        });
        assets.push(
          buildAsset({
            arn: p.Arn,
            name: p.Name,
            asset_type: 'ORG_POLICY',
            provider: 'AWS',
            account_id: master,
            metadata: {
              policy_id: PolicyId,
              policy_type: p.Type,
              aws_managed: p.AwsManaged,
              description: p.Description,
              target_count: rawTargets.length,
            },
            aliases: [PolicyId],
            // Only SCPs are listed; the reference's relationship for them (SCP_GOVERNS is no
            // relation type of the ontology).
            relations: relations(...targets.map((t) => rel(t, 'GOVERNS', 'SCP_RESTRICTS'))),
          }),
        );
      }
    const organization = OrganizationTopologySchema.parse({
      organization_id: o.Id,
      organization_arn: o.Arn,
      management_account_id: master,
      feature_set: o.FeatureSet,
      roots: roots.map((r) => ({
        id: r.id,
        name: r.name,
        arn: r.arn,
        parent_id: null,
        path: [],
        is_root: true,
      })),
      ous: topologyOus,
      accounts: topologyAccounts,
      policies: topologyPolicies,
    });
    return { assets, organization };
  },
};
