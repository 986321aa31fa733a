/**
 * Shapes that break naive graph code, each grounded in something real estates grow:
 *
 * - a hub: the organization's log archive bucket that a large share of all assets LOGS_TO
 *   (tens of thousands of edges at 50,000 assets; in the dependency view everything that logs
 *   depends on it, so its blast radius is huge);
 * - long chains: a role-assumption chain across accounts (IAM_TRUST, a pivot the flow view
 *   follows) from an internet-exposed instance to a database, longer than the default path
 *   depth; and a chain of staged queues, each redriving into the next (REFERENCES);
 * - dense cliques: legacy security groups that all admit each other (one of them open to the
 *   internet), and roles that all trust each other.
 *
 * Sizes grow with the estate; `hostilePlan` fixes them so the budget can be reserved first.
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { EstateBuilder } from './builder.js';
import type { Account } from './clouds.js';
import type { AccountContext } from './context.js';

export interface HostilePlan {
  /** Share of the other assets that log to the hub. */
  hubShare: number;
  roleChain: number;
  queueChain: number;
  groupClique: number;
  roleClique: number;
}

export interface HostileShapes {
  hub: { id: string; name: string; edges: number };
  chains: { kind: string; length: number; first: string; last: string }[];
  cliques: { kind: string; size: number; edges: number; members: string[] }[];
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(n)));

export function hostilePlan(assets: number): HostilePlan {
  return {
    hubShare: 0.55,
    roleChain: clamp(assets / 500, 12, 120),
    queueChain: clamp(assets / 100, 30, 600),
    groupClique: clamp(Math.sqrt(assets) / 3, 8, 80),
    roleClique: clamp(Math.sqrt(assets) / 6, 6, 40),
  };
}

/** Assets the hostile shapes add (the hub bucket is counted here too). */
export function hostileAssetCount(plan: HostilePlan): number {
  // role chain: the roles, the exposed entry instance and the database at the end.
  return 1 + plan.roleChain + 2 + plan.queueChain + 2 * plan.groupClique + plan.roleClique;
}

/** The log archive bucket (created early so nothing else depends on creation order). */
export function logArchive(b: EstateBuilder, account: Account): CloudAsset {
  const hub = b.add({
    type: 'S3_BUCKET',
    account,
    region: 'global',
    base: 'org-log-archive',
    tags: { 'data-classification': 'restricted', purpose: 'audit-logs' },
    metadata: { versioning: true, object_lock: true, public_access_block: true },
  });
  b.contain(account, hub);
  return hub;
}

export function buildHostile(
  b: EstateBuilder,
  plan: HostilePlan,
  hub: CloudAsset,
  contexts: readonly AccountContext[],
): HostileShapes {
  const rng = b.rng;
  const aws = contexts.filter((c) => c.account.cloud === 'AWS' && c.account.role === 'workload');
  const home = aws[0] ?? contexts[0];
  if (!home) throw new Error('no account for the hostile shapes');
  const net = home.networks[0];
  if (!net) throw new Error('no network for the hostile shapes');
  const region = net.region;
  const chains: HostileShapes['chains'] = [];
  const cliques: HostileShapes['cliques'] = [];

  // Role chain across the AWS accounts, entered from an exposed instance.
  const entrySg = b.add({ type: 'SECURITY_GROUP', account: home.account, region, base: 'legacy-jump-sg' });
  b.allow('0.0.0.0/0', entrySg, '22');
  const roles: CloudAsset[] = [];
  for (let i = 0; i < plan.roleChain; i += 1) {
    const ctx = aws.length ? (aws[i % aws.length] ?? home) : home;
    const role = b.add({
      type: 'IAM_ROLE',
      account: ctx.account,
      region: 'global',
      base: `hop-${i}-role`,
      metadata: { chain_position: i },
    });
    if (i > 0) {
      const prev = roles[i - 1];
      if (prev)
        b.link(prev, 'IAM_TRUST', role, {
          relationship: prev.account_id === role.account_id ? 'ROLE_ASSUMES_ROLE' : 'CROSS_ACCOUNT_TRUST',
          properties: { cross_account: prev.account_id !== role.account_id },
        });
    }
    roles.push(role);
  }
  const entry = b.add({
    type: 'EC2',
    account: home.account,
    region,
    base: 'legacy-jump-host',
    exposed: true,
    metadata: { public_ip: `198.51.100.${rng.int(1, 254)}` },
  });
  b.link(b.rng.pick(net.publicSubnets), 'CONTAINS', entry);
  b.link(entry, 'ATTACHED_TO', entrySg, { relationship: 'PROTECTED_BY_SG' });
  const first = roles[0];
  const last = roles[roles.length - 1];
  if (first) b.link(entry, 'ASSUMES_ROLE', first, { relationship: 'RUNS_ON' });
  const vault = b.add({
    type: 'RDS_INSTANCE',
    account: home.account,
    region,
    base: 'ledger-vault-db',
    tags: { 'data-classification': 'restricted' },
    metadata: { engine: 'postgres', storage_encrypted: true },
  });
  b.link(b.rng.pick(net.privateSubnets), 'CONTAINS', vault);
  if (last) b.link(last, 'GRANTS_ACCESS', vault, { relationship: 'POLICY_ALLOWS_ACTION' });
  chains.push({
    kind: 'role-assumption (IAM_TRUST)',
    length: roles.length,
    first: entry.name,
    last: vault.name,
  });

  // Queue chain: each stage redrives into the next.
  let prevQueue: CloudAsset | null = null;
  let firstQueue: CloudAsset | null = null;
  for (let i = 0; i < plan.queueChain; i += 1) {
    const q = b.add({
      type: 'MESSAGE_QUEUE',
      account: home.account,
      region,
      base: `ingest-stage-${i}`,
      metadata: { redrive_max_receive_count: 5 },
    });
    if (prevQueue) b.link(prevQueue, 'REFERENCES', q, { relationship: 'DEPENDS_ON' });
    else firstQueue = q;
    prevQueue = q;
  }
  chains.push({
    kind: 'queue redrive (REFERENCES)',
    length: plan.queueChain,
    first: firstQueue?.name ?? '',
    last: prevQueue?.name ?? '',
  });

  // Security groups that all admit each other; one is open to the internet.
  const groups: CloudAsset[] = [];
  const role = home.identities[0] ?? first;
  for (let i = 0; i < plan.groupClique; i += 1) {
    const sg = b.add({ type: 'SECURITY_GROUP', account: home.account, region, base: 'legacy-mesh-sg' });
    const vm = b.add({
      type: 'EC2',
      account: home.account,
      region,
      base: 'legacy-mesh-node',
      metadata: { instance_type: 'm4.large', imds_v2: false },
    });
    b.link(b.rng.pick(net.privateSubnets), 'CONTAINS', vm);
    b.link(vm, 'ATTACHED_TO', sg, { relationship: 'PROTECTED_BY_SG' });
    if (role) b.link(vm, 'ASSUMES_ROLE', role, { relationship: 'RUNS_ON' });
    home.machines.push(vm);
    groups.push(sg);
  }
  let meshEdges = 0;
  for (const to of groups)
    for (const from of groups) {
      if (from === to) continue;
      b.allow(from, to, '0-65535', 'ALL');
      meshEdges += 1;
    }
  const open = groups[0];
  if (open) {
    b.allow('0.0.0.0/0', open, '443');
    meshEdges += 1;
  }
  cliques.push({
    kind: 'security groups admitting each other',
    size: groups.length,
    edges: meshEdges,
    members: groups.map((g) => g.name),
  });

  // Roles that all trust each other; one runs an internet-facing workload's code.
  const mesh: CloudAsset[] = [];
  for (let i = 0; i < plan.roleClique; i += 1) {
    const ctx = aws.length ? (aws[(i * 7) % aws.length] ?? home) : home;
    const r = b.add({
      type: 'IAM_ROLE',
      account: ctx.account,
      region: 'global',
      base: 'shared-automation-role',
    });
    mesh.push(r);
    const jewel = ctx.jewels.length ? rng.pick(ctx.jewels) : null;
    if (jewel) b.link(r, 'GRANTS_ACCESS', jewel, { relationship: 'POLICY_ALLOWS_ACTION' });
  }
  let trustEdges = 0;
  for (const to of mesh)
    for (const from of mesh) {
      if (from === to) continue;
      b.link(from, 'IAM_TRUST', to, {
        relationship: from.account_id === to.account_id ? 'ROLE_ASSUMES_ROLE' : 'CROSS_ACCOUNT_TRUST',
        properties: { cross_account: from.account_id !== to.account_id },
      });
      trustEdges += 1;
    }
  const exposedMachine = contexts
    .flatMap((c) => c.machines)
    .find((m) => m.is_internet_exposed && m.provider === 'AWS');
  const meshFirst = mesh[0];
  if (exposedMachine && meshFirst)
    b.link(exposedMachine, 'ASSUMES_ROLE', meshFirst, { relationship: 'RUNS_ON' });
  cliques.push({
    kind: 'roles trusting each other',
    size: mesh.length,
    edges: trustEdges,
    members: mesh.map((r) => r.name),
  });

  // The hub last, so that it sees every asset: a share of everything logs to it.
  let hubEdges = 0;
  for (const a of b.assets) {
    if (a === hub || a.region === 'global' || !rng.chance(plan.hubShare)) continue;
    b.link(a, 'LOGS_TO', hub, { relationship: 'LOGS_TO', properties: { via: 'org-log-export' } });
    hubEdges += 1;
  }
  return { hub: { id: hub.id, name: hub.name, edges: hubEdges }, chains, cliques };
}
