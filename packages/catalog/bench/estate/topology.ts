/**
 * The estate's assets and edges, exactly `assets` of them: the hierarchy, the central
 * identities and the log archive first, then every account's networks, security services,
 * trust roles and stacks up to its budget, then the edges that cross accounts (grants, trust,
 * peering and transit routes to each cloud's hub), the hostile shapes, and one-asset fillers
 * for whatever the budgets left over.
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import type { OrganizationTopology } from '../../src/model/organization.js';
import { EstateBuilder } from './builder.js';
import type { Account, Cloud } from './clouds.js';
import { type AccountContext, accountContext } from './context.js';
import { buildHostile, type HostileShapes, hostileAssetCount, hostilePlan, logArchive } from './hostile.js';
import { centralIdentities, crossAccountGrants, trustRoles } from './identity.js';
import { buildHub, buildNetwork, connectSpoke, type Hub, type Network } from './network.js';
import { assignBudgets, buildHierarchy, planAccounts } from './organization.js';
import { Rng } from './random.js';
import {
  analyticsStack,
  bastion,
  containerStack,
  filler,
  STACK_SIZE_MAX,
  serverlessStack,
  webStack,
} from './workloads.js';

/** Below this the proportions (accounts, stacks, hostile shapes) stop making sense. */
export const MIN_ASSETS = 1000;

export interface Topology {
  rng: Rng;
  assets: CloudAsset[];
  edges: NetworkEdge[];
  organization: OrganizationTopology;
  accounts: Account[];
  contexts: AccountContext[];
  hostile: HostileShapes;
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(n)));

/** The cloud's security services: enabled ones monitor, missing ones are placeholders (gaps). */
function securityServices(ctx: AccountContext): CloudAsset | null {
  const { b, account } = ctx;
  const region = account.regions[0] ?? 'global';
  const services: [string, string, number][] =
    account.cloud === 'AWS'
      ? [
          ['THREAT_DETECTOR', 'guardduty', 0.85],
          ['VULNERABILITY_SCANNER', 'inspector2', 0.5],
        ]
      : account.cloud === 'AZURE'
        ? [['THREAT_DETECTOR', 'defender-servers', 0.6]]
        : [['THREAT_DETECTOR', 'security-command-center', 0.7]];
  let scanner: CloudAsset | null = null;
  for (const [type, service, p] of services) {
    const enabled = b.rng.chance(p);
    const asset = b.add({
      type,
      account,
      region,
      base: enabled ? service : `${service}-not-enabled`,
      metadata: enabled
        ? { security_service: service, enabled: true }
        : { security_service: service, enabled: false, status: 'not enabled' },
      ...(enabled || account.cloud !== 'AWS'
        ? {}
        : { arn: `cloudg:aws:${service}:${region}:${account.id}:not-enabled` }),
    });
    if (!enabled) continue;
    if (type === 'THREAT_DETECTOR') b.link(asset, 'MONITORS', account.assetId);
    else scanner = asset;
  }
  return scanner;
}

type StackKind = 'web' | 'serverless' | 'container' | 'analytics';

function stackWeights(account: Account): (readonly [StackKind, number])[] {
  if (account.role === 'log-archive' || account.role === 'security') return [['analytics', 1]];
  if (account.role === 'shared-services' || account.role === 'management')
    return [
      ['container', 2],
      ['serverless', 1],
    ];
  return [
    ['web', 4],
    ['serverless', 3],
    ['container', 2],
    ['analytics', 1],
  ];
}

export function buildTopology(seed: number, total: number): Topology {
  if (!Number.isInteger(total) || total < MIN_ASSETS)
    throw new RangeError(`assets must be an integer of at least ${MIN_ASSETS}`);
  const rng = new Rng(seed);
  const b = new EstateBuilder(rng);
  const accounts = planAccounts(rng, total);
  const hierarchy = buildHierarchy(b, accounts, clamp(total / 10000, 2, 12));
  const central = centralIdentities(b, accounts, hierarchy.external, clamp(total / 1500, 3, 60));
  const logAccount = accounts.find((a) => a.role === 'log-archive') ?? accounts[0];
  if (!logAccount) throw new Error('no accounts planned');
  const hub = logArchive(b, logAccount);
  const plan = hostilePlan(total);
  // A little slack stays unassigned: an account whose fixed parts (networks, key, trust roles)
  // exceed its share overspends, and later accounts absorb it; the final fillers use the rest.
  const slack = Math.ceil(total * 0.005);
  assignBudgets(accounts, total - b.count - (hostileAssetCount(plan) - 1) - slack);
  let planned = b.count;

  const hubs = new Map<Cloud, Hub>();
  const spokes: Network[] = [];
  const contexts: AccountContext[] = [];
  let octet = 0;
  for (const account of accounts) {
    planned += account.budget;
    const networks: Network[] = [];
    const isHub = !hubs.has(account.cloud) && (account.cloud !== 'AWS' || account.role === 'shared-services');
    account.regions.forEach((region, i) => {
      octet += 1;
      if (isHub && i === 0) {
        const h = buildHub(b, account, octet);
        hubs.set(account.cloud, h);
        networks.push(h.network);
      } else {
        const net = buildNetwork(b, account, region, octet);
        networks.push(net);
        spokes.push(net);
      }
    });
    const ctx = accountContext(b, account, networks);
    contexts.push(ctx);
    const scanner = securityServices(ctx);
    trustRoles(ctx, central);
    const weights = stackWeights(account);
    const wantsBastion = account.role === 'workload' && rng.chance(account.env === 'prod' ? 0.3 : 0.5);
    let first = true;
    for (;;) {
      const room = planned - b.count - (first && wantsBastion ? STACK_SIZE_MAX.bastion : 0);
      const fitting = weights.filter(([kind]) => STACK_SIZE_MAX[kind] <= room);
      if (fitting.length === 0) break;
      const net = rng.pick(networks);
      const app = rng.pick(account.apps);
      if (first && wantsBastion) bastion(ctx, net);
      first = false;
      switch (rng.weighted(fitting)) {
        case 'web':
          webStack(ctx, net, app);
          break;
        case 'serverless':
          serverlessStack(ctx, net, app);
          break;
        case 'container':
          containerStack(ctx, net, app);
          break;
        case 'analytics':
          analyticsStack(ctx, net, app);
          break;
      }
    }
    while (b.count < planned) filler(ctx, rng.pick(networks));
    if (scanner) for (const m of ctx.machines) b.link(scanner, 'MONITORS', m);
  }

  crossAccountGrants(b, contexts);
  for (const net of spokes) {
    const h = hubs.get(net.account.cloud);
    if (h) connectSpoke(b, net, h, rng.chance(0.4));
  }
  const hostile = buildHostile(b, plan, hub, contexts);
  const workloads = contexts.filter((c) => c.account.role === 'workload');
  while (b.count < total) {
    const ctx = rng.pick(workloads);
    filler(ctx, rng.pick(ctx.networks));
  }
  if (b.count !== total)
    throw new Error(`estate generator overran its budget: ${b.count} assets for ${total} (a bug)`);
  return {
    rng,
    assets: b.assets,
    edges: b.edges,
    organization: hierarchy.organization,
    accounts,
    contexts,
    hostile,
  };
}
