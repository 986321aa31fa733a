/**
 * Accounts and the hierarchy above them: an AWS organization with OUs, service control policies
 * and a Control Tower landing zone (also written as `inventory-organization.json`), an Azure
 * management group tree over the subscriptions, a GCP organization with folders over the
 * projects, and a few external AWS accounts that roles trust (vendors). Hierarchy edges carry
 * `properties.hierarchy: true` as the hierarchy pass writes them.
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { OrganizationTopology } from '../../src/model/organization.js';
import type { EstateBuilder } from './builder.js';
import { type Account, type Cloud, REGIONS } from './clouds.js';
import type { Rng } from './random.js';

export const APPS = [
  'orders',
  'payments',
  'checkout',
  'catalog',
  'search',
  'billing',
  'identity',
  'ledger',
  'inventory',
  'shipping',
  'analytics',
  'reporting',
  'notifications',
  'fraud',
  'pricing',
  'loyalty',
  'profile',
  'media',
  'recommendations',
  'warehouse',
  'crm',
  'support',
  'partners',
  'telemetry',
] as const;

export interface Hierarchy {
  accounts: Account[];
  /** External AWS accounts (vendors) as CLOUD_ACCOUNT placeholders. */
  external: CloudAsset[];
  organization: OrganizationTopology;
  /** Number of assets the hierarchy itself created. */
  assetCount: number;
}

function accountCount(assets: number): Record<Cloud, number> {
  const total = Math.max(6, Math.min(600, Math.round(assets / 450)));
  const aws = Math.max(3, Math.round(total * 0.5));
  const azure = Math.max(2, Math.round(total * 0.3));
  const gcp = Math.max(2, total - aws - azure);
  return { AWS: aws, AZURE: azure, GCP: gcp };
}

const AWS_SPECIAL: readonly Account['role'][] = ['management', 'log-archive', 'shared-services', 'security'];

function newAccount(rng: Rng, cloud: Cloud, role: Account['role'], index: number): Account {
  const env: Account['env'] =
    role !== 'workload'
      ? 'shared'
      : rng.weighted([
          ['prod', 4],
          ['staging', 2],
          ['dev', 2],
        ] as const);
  const apps = role === 'workload' ? [rng.pick(APPS), rng.pick(APPS), rng.pick(APPS)] : ['platform'];
  const regions = [...REGIONS[cloud]];
  const regionCount =
    role === 'workload'
      ? rng.weighted([
          [1, 3],
          [2, 2],
        ] as const)
      : 1;
  const picked = [regions[index % regions.length] ?? 'global'];
  if (regionCount === 2) picked.push(regions[(index + 1) % regions.length] ?? 'global');
  const label = role === 'workload' ? `${apps[0]}-${env}` : role;
  const projectNumber = rng.digits(12);
  const id =
    cloud === 'AWS'
      ? rng.digits(12)
      : cloud === 'AZURE'
        ? rng.uuid()
        : `${label}-${projectNumber.slice(0, 4)}`.slice(0, 30);
  return {
    cloud,
    id,
    // Unique across clouds: scanner reports that name an account by name must find one.
    name: `${cloud.toLowerCase()}-${label}-${index + 1}`,
    role,
    env,
    apps: [...new Set(apps)],
    regions: picked,
    resourceGroup: `rg-${label}`,
    projectNumber,
    assetId: '',
    parentAssetId: '',
    budget: 0,
  };
}

/** Every account of the estate (budgets are assigned once the fixed parts are built). */
export function planAccounts(rng: Rng, assets: number): Account[] {
  const counts = accountCount(assets);
  const accounts: Account[] = [];
  for (const cloud of ['AWS', 'AZURE', 'GCP'] as const) {
    const n = counts[cloud];
    const specials = cloud === 'AWS' ? AWS_SPECIAL.slice(0, Math.min(AWS_SPECIAL.length, n - 1)) : [];
    for (let i = 0; i < n; i += 1) accounts.push(newAccount(rng, cloud, specials[i] ?? 'workload', i));
  }
  return accounts;
}

/** Share `budget` assets out: production accounts run more than the others, platform ones little. */
export function assignBudgets(accounts: Account[], budget: number): void {
  const weight = (a: Account) =>
    a.role !== 'workload' ? 0.5 : a.env === 'prod' ? 3 : a.env === 'staging' ? 1.5 : 1;
  const total = accounts.reduce((s, a) => s + weight(a), 0);
  let given = 0;
  for (const a of accounts) {
    a.budget = Math.floor((budget * weight(a)) / total);
    given += a.budget;
  }
  // Rounding leftovers go to the workload accounts, one each.
  const workloads = accounts.filter((a) => a.role === 'workload');
  for (let i = 0; given < budget; i += 1, given += 1) {
    const a = workloads[i % workloads.length];
    if (a) a.budget += 1;
  }
}

function accountArn(a: Account): string {
  if (a.cloud === 'AWS') return `arn:aws:iam::${a.id}:root`;
  if (a.cloud === 'AZURE') return `/subscriptions/${a.id}`;
  return `//cloudresourcemanager.googleapis.com/projects/${a.id}`;
}

/** Build the hierarchy assets and edges over `accounts` and return the AWS organization. */
export function buildHierarchy(b: EstateBuilder, accounts: Account[], externalCount: number): Hierarchy {
  const start = b.count;
  const rng = b.rng;
  const aws = accounts.filter((a) => a.cloud === 'AWS');
  const management = aws[0];
  if (!management) throw new Error('an AWS management account is required');
  const orgId = `o-${rng.hex(10)}`;
  const mgmt = management.id;
  const hierarchy = { properties: { hierarchy: true } };

  // --- AWS organization ------------------------------------------------------------------
  const org = b.addFixed({
    arn: `arn:aws:organizations::${mgmt}:organization/${orgId}`,
    name: 'estate-org',
    asset_type: 'ORGANIZATION',
    provider: 'AWS',
    region: 'global',
    account_id: mgmt,
    tags: {},
    metadata: { organization_id: orgId, feature_set: 'ALL' },
    is_internet_exposed: false,
  });
  const rootId = `r-${rng.hex(4)}`;
  const ouSpecs = [
    ['Security', null],
    ['Infrastructure', null],
    ['Workloads', null],
    ['Prod', 'Workloads'],
    ['NonProd', 'Workloads'],
  ] as const;
  const ous: OrganizationTopology['ous'] = {};
  const ouAssets = new Map<string, CloudAsset>();
  const ouIds = new Map<string, string>();
  for (const [name, parent] of ouSpecs) {
    const id = `ou-${rng.hex(4)}-${rng.hex(8)}`;
    ouIds.set(name, id);
    const arn = `arn:aws:organizations::${mgmt}:ou/${orgId}/${id}`;
    ous[id] = {
      id,
      name,
      arn,
      parent_id: parent ? (ouIds.get(parent) ?? rootId) : rootId,
      path: parent ? ['Root', parent, name] : ['Root', name],
      is_root: false,
    };
    const asset = b.addFixed({
      arn,
      name,
      asset_type: 'ORG_UNIT',
      provider: 'AWS',
      region: 'global',
      account_id: mgmt,
      tags: {},
      metadata: { ou_id: id },
      is_internet_exposed: false,
    });
    ouAssets.set(name, asset);
    b.link(parent ? (ouAssets.get(parent) ?? org) : org, 'CONTAINS', asset, hierarchy);
  }
  const ouOf = (a: Account): string | null => {
    if (a.role === 'management') return null;
    if (a.role === 'log-archive' || a.role === 'security') return 'Security';
    if (a.role === 'shared-services') return 'Infrastructure';
    return a.env === 'prod' ? 'Prod' : 'NonProd';
  };
  const orgAccounts: OrganizationTopology['accounts'] = {};
  for (const a of aws) {
    const ou = ouOf(a);
    const parentAsset = ou ? ouAssets.get(ou) : org;
    const asset = b.addFixed({
      arn: accountArn(a),
      name: a.name,
      asset_type: 'CLOUD_ACCOUNT',
      provider: 'AWS',
      region: 'global',
      account_id: a.id,
      tags: { env: a.env },
      metadata: { account_id: a.id, role: a.role },
      is_internet_exposed: false,
    });
    a.assetId = asset.id;
    a.parentAssetId = parentAsset?.id ?? org.id;
    b.link(parentAsset ?? org, 'CONTAINS', asset, hierarchy);
    orgAccounts[a.id] = {
      id: a.id,
      name: a.name,
      arn: `arn:aws:organizations::${mgmt}:account/${orgId}/${a.id}`,
      status: 'ACTIVE',
      parent_id: ou ? (ouIds.get(ou) ?? rootId) : rootId,
      ou_path: ou ? (ous[ouIds.get(ou) ?? '']?.path ?? ['Root']) : ['Root'],
      email: `aws+${a.name}@example.com`,
      joined_method: a.role === 'management' ? 'INVITED' : 'CREATED',
      joined: '2024-03-01T09:00:00+00:00',
    };
  }
  const policies: OrganizationTopology['policies'] = [];
  const scps = [
    ['FullAWSAccess', true, ['Root']],
    ['deny-leave-organization', false, ['Root']],
    ['deny-unapproved-regions', false, ['Workloads']],
    ['protect-security-services', false, ['Security', 'Workloads']],
  ] as const;
  for (const [name, managed, targets] of scps) {
    const id = managed ? 'p-FullAWSAccess' : `p-${rng.hex(8)}`;
    const arn = `arn:aws:organizations::${mgmt}:policy/${orgId}/service_control_policy/${id}`;
    const targetIds = targets.map((t) => (t === 'Root' ? rootId : (ouIds.get(t) ?? rootId)));
    policies.push({
      id,
      name,
      arn,
      type: 'SERVICE_CONTROL_POLICY',
      aws_managed: managed,
      targets: targetIds,
    });
    const asset = b.addFixed({
      arn,
      name,
      asset_type: 'SERVICE_CONTROL_POLICY',
      provider: 'AWS',
      region: 'global',
      account_id: mgmt,
      tags: {},
      metadata: { policy_id: id, aws_managed: managed },
      is_internet_exposed: false,
    });
    for (const t of targets) b.link(asset, 'GOVERNS', t === 'Root' ? org : (ouAssets.get(t) ?? org));
  }

  // --- Azure management groups -----------------------------------------------------------
  const azure = accounts.filter((a) => a.cloud === 'AZURE');
  const tenant = rng.uuid();
  const mg = (name: string, parent: CloudAsset | null) => {
    const asset = b.addFixed({
      arn: `/providers/Microsoft.Management/managementGroups/${name}`,
      name,
      asset_type: 'MANAGEMENT_GROUP',
      provider: 'AZURE',
      region: 'global',
      account_id: null,
      tags: {},
      metadata: { tenant_id: tenant },
      is_internet_exposed: false,
    });
    if (parent) b.link(parent, 'CONTAINS', asset, hierarchy);
    return asset;
  };
  const mgRoot = mg('tenant-root', null);
  const mgPlatform = mg('platform', mgRoot);
  const mgLanding = mg('landing-zones', mgRoot);
  const azPolicy = b.addFixed({
    arn: `/providers/Microsoft.Management/managementGroups/landing-zones/providers/Microsoft.Authorization/policyAssignments/deny-public-ip`,
    name: 'deny-public-ip',
    asset_type: 'AZURE_POLICY',
    provider: 'AZURE',
    region: 'global',
    account_id: null,
    tags: {},
    metadata: { effect: 'Deny' },
    is_internet_exposed: false,
  });
  b.link(azPolicy, 'GOVERNS', mgLanding);
  azure.forEach((a, i) => {
    const parent = i === 0 ? mgPlatform : mgLanding;
    const asset = b.addFixed({
      arn: accountArn(a),
      name: a.name,
      asset_type: 'CLOUD_ACCOUNT',
      provider: 'AZURE',
      region: 'global',
      account_id: a.id,
      tags: { env: a.env },
      metadata: { subscription_id: a.id, tenant_id: tenant },
      is_internet_exposed: false,
    });
    a.assetId = asset.id;
    a.parentAssetId = parent.id;
    b.link(parent, 'CONTAINS', asset, hierarchy);
  });

  // --- GCP organization and folders ------------------------------------------------------
  const gcp = accounts.filter((a) => a.cloud === 'GCP');
  const gcpOrgNumber = rng.digits(12);
  const gcpOrg = b.addFixed({
    arn: `//cloudresourcemanager.googleapis.com/organizations/${gcpOrgNumber}`,
    name: 'estate.example.com',
    asset_type: 'ORGANIZATION',
    provider: 'GCP',
    region: 'global',
    account_id: null,
    tags: {},
    metadata: { organization_number: gcpOrgNumber },
    is_internet_exposed: false,
  });
  const folders = new Map<string, CloudAsset>();
  for (const name of ['shared', 'production', 'non-production']) {
    const folder = b.addFixed({
      arn: `//cloudresourcemanager.googleapis.com/folders/${rng.digits(12)}`,
      name,
      asset_type: 'FOLDER',
      provider: 'GCP',
      region: 'global',
      account_id: null,
      tags: {},
      metadata: {},
      is_internet_exposed: false,
    });
    folders.set(name, folder);
    b.link(gcpOrg, 'CONTAINS', folder, hierarchy);
  }
  const gcpPolicy = b.addFixed({
    arn: `//orgpolicy.googleapis.com/organizations/${gcpOrgNumber}/policies/iam.disableServiceAccountKeyCreation`,
    name: 'iam.disableServiceAccountKeyCreation',
    asset_type: 'ORG_POLICY',
    provider: 'GCP',
    region: 'global',
    account_id: null,
    tags: {},
    metadata: { enforced: true },
    is_internet_exposed: false,
  });
  b.link(gcpPolicy, 'GOVERNS', folders.get('production') ?? gcpOrg);
  gcp.forEach((a, i) => {
    const folder =
      folders.get(i === 0 ? 'shared' : a.env === 'prod' ? 'production' : 'non-production') ?? gcpOrg;
    const asset = b.addFixed({
      arn: accountArn(a),
      name: a.name,
      asset_type: 'CLOUD_ACCOUNT',
      provider: 'GCP',
      region: 'global',
      account_id: a.id,
      tags: { env: a.env },
      metadata: { project_id: a.id, project_number: a.projectNumber },
      is_internet_exposed: false,
    });
    a.assetId = asset.id;
    a.parentAssetId = folder.id;
    b.link(folder, 'CONTAINS', asset, hierarchy);
  });

  // --- External accounts that trust policies name -----------------------------------------
  const external: CloudAsset[] = [];
  for (let i = 0; i < externalCount; i += 1) {
    const id = rng.digits(12);
    external.push(
      b.addFixed({
        arn: `arn:aws:iam::${id}:root`,
        name: `external account ${id}`,
        asset_type: 'CLOUD_ACCOUNT',
        provider: 'AWS',
        region: 'global',
        account_id: id,
        tags: {},
        metadata: { account_id: id, external: true, discovered_via: 'cross-account reference' },
        is_internet_exposed: false,
      }),
    );
  }

  const organization: OrganizationTopology = {
    organization_id: orgId,
    organization_arn: org.arn,
    management_account_id: mgmt,
    caller_account_id: mgmt,
    feature_set: 'ALL',
    roots: [
      {
        id: rootId,
        name: 'Root',
        arn: `arn:aws:organizations::${mgmt}:root/${orgId}/${rootId}`,
        parent_id: null,
        path: ['Root'],
        is_root: true,
      },
    ],
    ous,
    accounts: orgAccounts,
    policies,
    delegated_administrators: {
      'guardduty.amazonaws.com': aws.filter((a) => a.role === 'security').map((a) => a.id),
    },
    enabled_services: ['guardduty.amazonaws.com', 'securityhub.amazonaws.com', 'sso.amazonaws.com'],
    landing_zone: { version: '3.3', drift_status: 'IN_SYNC' },
    governed_regions: ['us-east-1', 'eu-west-1', 'us-west-2'],
    shared_accounts: Object.fromEntries(
      aws.filter((a) => a.role === 'log-archive' || a.role === 'security').map((a) => [a.role, a.id]),
    ),
    enabled_controls: [],
    enabled_baselines: [],
    control_tower_region: 'us-east-1',
    errors: [],
    control_tower_enabled: true,
  };
  return { accounts, external, organization, assetCount: b.count - start };
}
