/**
 * Identities that cross account lines, the way real estates accumulate them: people in the
 * management account who may assume admin roles everywhere, a CI role in shared services
 * trusted by every account's deploy role, a security auditor trusted by every audit role,
 * vendors (external accounts) trusted with an external id, and workload identities granted
 * stores in sibling accounts. IAM_TRUST reads "principal may assume role" (source → target).
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { EstateBuilder } from './builder.js';
import type { Account } from './clouds.js';
import type { AccountContext } from './context.js';

export interface CentralIdentities {
  humans: CloudAsset[];
  ci: CloudAsset;
  auditor: CloudAsset;
  external: CloudAsset[];
}

const CROSS = { cross_account: true };

/** The people, the CI role and the auditor, in the platform accounts; `people` users. */
export function centralIdentities(
  b: EstateBuilder,
  accounts: readonly Account[],
  external: CloudAsset[],
  people: number,
): CentralIdentities {
  const aws = accounts.filter((a) => a.cloud === 'AWS');
  const byRole = (role: Account['role']) => aws.find((a) => a.role === role) ?? aws[0];
  const management = byRole('management');
  const shared = byRole('shared-services');
  const security = byRole('security');
  if (!management || !shared || !security) throw new Error('no AWS account for the central identities');
  const humans: CloudAsset[] = [];
  const policy = b.add({
    type: 'IAM_POLICY',
    account: management,
    region: 'global',
    base: 'assume-workload-roles',
    metadata: { actions: ['sts:AssumeRole'], resources: ['arn:aws:iam::*:role/*-admin-*'] },
  });
  for (let i = 0; i < people; i += 1) {
    const user = b.add({
      type: 'IAM_USER',
      account: management,
      region: 'global',
      base: b.rng.pick(['sre', 'dev', 'secops', 'dba', 'finops', 'platform']),
      tags: { team: b.rng.pick(['platform', 'security', 'data', 'payments', 'web']) },
      metadata: {
        mfa_enabled: b.rng.chance(0.8),
        console_access: true,
        password_last_used_days: b.rng.int(0, 400),
      },
    });
    b.contain(management, user);
    b.link(user, 'IAM_POLICY_ATTACHMENT', policy);
    humans.push(user);
  }
  const oidc = b.add({
    type: 'OIDC_PROVIDER',
    account: shared,
    region: 'global',
    base: 'token.actions.githubusercontent.com',
    metadata: { url: 'https://token.actions.githubusercontent.com', client_ids: ['sts.amazonaws.com'] },
  });
  const ci = b.add({ type: 'IAM_ROLE', account: shared, region: 'global', base: 'ci-deployer' });
  b.contain(shared, ci);
  b.link(oidc, 'IAM_TRUST', ci, { relationship: 'FEDERATED_BY' });
  const auditor = b.add({ type: 'IAM_ROLE', account: security, region: 'global', base: 'security-auditor' });
  b.contain(security, auditor);
  return { humans, ci, auditor, external };
}

/** The roles every AWS account gives to the centre: deploy, audit, break-glass admin, maybe a vendor. */
export function trustRoles(ctx: AccountContext, central: CentralIdentities): void {
  const { b, account } = ctx;
  if (account.cloud !== 'AWS') return;
  const role = (base: string) => {
    const r = b.add({ type: 'IAM_ROLE', account, region: 'global', base, tags: { env: account.env } });
    b.contain(account, r);
    ctx.identities.push(r);
    ctx.jewels.push(r);
    return r;
  };
  const deploy = role('deploy-role');
  b.link(central.ci, 'IAM_TRUST', deploy, {
    relationship: 'CROSS_ACCOUNT_TRUST',
    properties: CROSS,
    description: `${central.ci.arn} can assume this role`,
  });
  b.link(deploy, 'GRANTS_ACCESS', ctx.registry, { relationship: 'WRITES_TO' });
  b.link(deploy, 'GRANTS_ACCESS', ctx.key, { relationship: 'POLICY_ALLOWS_ACTION' });
  const audit = role('audit-role');
  b.link(central.auditor, 'IAM_TRUST', audit, { relationship: 'CROSS_ACCOUNT_TRUST', properties: CROSS });
  const admin = role('break-glass-admin-role');
  const admins = Math.min(central.humans.length, b.rng.int(1, 3));
  for (let i = 0; i < admins; i += 1) {
    b.link(b.rng.pick(central.humans), 'IAM_TRUST', admin, {
      relationship: 'CROSS_ACCOUNT_TRUST',
      properties: { ...CROSS, conditions: { Bool: { 'aws:MultiFactorAuthPresent': 'true' } } },
    });
  }
  if (central.external.length && b.rng.chance(0.2)) {
    const vendor = role('vendor-integration-role');
    const ext = b.rng.pick(central.external);
    b.link(ext, 'IAM_TRUST', vendor, {
      relationship: 'CROSS_ACCOUNT_TRUST',
      properties: { ...CROSS, external_id_required: true, external_reference: ext.arn },
      description: `${ext.arn} can assume this role`,
    });
  }
}

/**
 * Edges only: a share of workload identities granted a store in another account of the same
 * cloud (shared data), and a share of app roles trusted by a role of a sibling account.
 */
export function crossAccountGrants(b: EstateBuilder, contexts: readonly AccountContext[]): void {
  for (const ctx of contexts) {
    const siblings = contexts.filter((c) => c !== ctx && c.account.cloud === ctx.account.cloud);
    if (siblings.length === 0) continue;
    for (const id of ctx.identities) {
      if (b.rng.chance(0.06)) {
        const other = b.rng.pick(siblings);
        const store = b.rng.pick(other.jewels);
        if (store !== id)
          b.link(id, 'GRANTS_ACCESS', store, { relationship: 'READS_FROM', properties: CROSS });
      }
      if (ctx.account.cloud === 'AWS' && b.rng.chance(0.03)) {
        const other = b.rng.pick(siblings);
        const principal = other.identities.length ? b.rng.pick(other.identities) : null;
        if (principal && principal !== id)
          b.link(principal, 'IAM_TRUST', id, { relationship: 'CROSS_ACCOUNT_TRUST', properties: CROSS });
      }
    }
  }
}
