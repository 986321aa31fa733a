import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { OrganizationTopology } from '../../model/organization.js';
import { HIERARCHY_ASSET_TYPES } from '../../model/vocabulary.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

export const NO_ORGANIZATION_NOTE =
  'This dataset has no organization discovery data and no organization, OU or account assets. Collect with organization discovery enabled (map_inventory) to see the hierarchy.';

/** From organization discovery data: OUs, accounts (capped), Control Tower fields, policies. */
function fromDiscovery(org: OrganizationTopology, maxAccounts: number, includePolicies: boolean) {
  const accounts = Object.values(org.accounts);
  const out: Record<string, unknown> = {
    source: 'organization_discovery',
    organization_id: org.organization_id,
    management_account_id: org.management_account_id,
    feature_set: org.feature_set,
    control_tower_enabled: org.control_tower_enabled,
    governed_regions: [...org.governed_regions],
    shared_accounts: { ...org.shared_accounts },
    ous: Object.values(org.ous).map((ou) => ({
      id: ou.id,
      name: ou.name,
      path: [...ou.path],
      parent_id: ou.parent_id ?? null,
    })),
    accounts: accounts.slice(0, maxAccounts).map((a) => ({
      id: a.id,
      name: a.name,
      status: a.status,
      ou_path: [...a.ou_path],
      parent_id: a.parent_id ?? null,
    })),
    total_accounts: accounts.length,
    truncated: accounts.length > maxAccounts,
  };
  if (includePolicies) {
    out.policies = org.policies.map((p) => ({
      id: p.id,
      name: p.name,
      type: p.type,
      aws_managed: p.aws_managed,
      targets: [...p.targets],
    }));
  }
  return out;
}

/** Without discovery data: organization, OU and account assets, parents from CONTAINS edges. */
function fromMapAssets(dataset: Dataset, maxAccounts: number, includePolicies: boolean) {
  const idx = dataset.indexes;
  const hierarchy = dataset.assets.filter((a) => HIERARCHY_ASSET_TYPES.has(a.asset_type));
  const policies = idx.byType.get('ORG_POLICY') ?? [];
  if (hierarchy.length === 0 && policies.length === 0) return null;
  const nodes = hierarchy.map((a) => {
    const parent = idx
      .incoming(a.id)
      .find(
        (e) =>
          e.edge_type === 'CONTAINS' &&
          HIERARCHY_ASSET_TYPES.has(idx.assetById(e.source_id)?.asset_type ?? ''),
      );
    return {
      id: a.id,
      name: a.name,
      type: a.asset_type,
      account_id: a.account_id,
      parent_id: parent?.source_id ?? null,
      external: a.metadata.external === true,
    };
  });
  const out: Record<string, unknown> = {
    source: 'map_assets',
    nodes: nodes.slice(0, maxAccounts),
    total: nodes.length,
    truncated: nodes.length > maxAccounts,
  };
  if (includePolicies) {
    out.policies = policies.map((p) => ({
      id: p.id,
      name: p.name,
      targets: idx
        .outgoing(p.id)
        .filter((e) => e.edge_type === 'GOVERNS')
        .map((e) => e.target_id),
    }));
  }
  return out;
}

/** `organization_topology`: organization, OUs, accounts, Control Tower and policies. */
export function registerOrganizationTopology(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'organization_topology',
    title: 'Organization topology',
    description:
      'The organization hierarchy: from organization discovery data (AWS Organizations, Control Tower, Azure management groups, GCP folders) when the dataset has it, else from the organization, OU and account assets on the map.',
    category: 'inventory',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      include_policies: z.boolean().default(false).describe('Add SCPs / org policies and their targets.'),
      max_accounts: z
        .number()
        .int()
        .min(1)
        .max(1000)
        .default(200)
        .describe('Cap on the accounts (or hierarchy nodes) listed.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const body = dataset.organization
        ? fromDiscovery(dataset.organization, args.max_accounts, args.include_policies)
        : fromMapAssets(dataset, args.max_accounts, args.include_policies);
      return body
        ? { dataset: dataset.name, ...body }
        : { dataset: dataset.name, source: null, note: NO_ORGANIZATION_NOTE };
    },
  });
}
