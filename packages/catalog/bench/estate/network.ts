/**
 * One network per account and region: a VPC / VNet / VPC network with public and private
 * subnets, route tables and gateways, network ACLs or NSGs with internet-open rules on the
 * public side and internal rules on the private side; and the hub of each cloud (a shared
 * services VPC with a transit gateway, a hub VNet with a firewall, a shared GCP network) that
 * spokes peer or route to, across accounts.
 *
 * Flow semantics as the reachability walk reads them: `0.0.0.0/0` → NACL (ingress rule) →
 * subnet (ATTACHED_TO walked backwards) → what the subnet CONTAINS; route tables ROUTE to
 * gateways; VPCs PEERING through a peering connection.
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { EstateBuilder } from './builder.js';
import { type Account, KITS, type Kit } from './clouds.js';

export interface Network {
  account: Account;
  region: string;
  kit: Kit;
  vpc: CloudAsset;
  cidr: string;
  publicSubnets: CloudAsset[];
  privateSubnets: CloudAsset[];
  /** Private route tables: where a spoke adds its route to the hub. */
  privateRoutes: CloudAsset[];
  /** Azure: the NSG of each tier, shared by what runs in it. */
  tierGroups: Partial<Record<'front' | 'app' | 'data', CloudAsset>>;
}

export interface Hub {
  network: Network;
  /** AWS transit gateway, Azure firewall, GCP Cloud NAT router: what spokes route to. */
  router: CloudAsset;
}

const PUBLIC = { 'network-tier': 'public' };
const PRIVATE = { 'network-tier': 'private' };

function tags(account: Account, extra: Record<string, string> = {}): Record<string, string> {
  return { env: account.env, 'managed-by': 'terraform', ...extra };
}

/** Build the network of `account` in `region`; `octet` makes the CIDR distinct (`10.<octet>.0.0/16`). */
export function buildNetwork(b: EstateBuilder, account: Account, region: string, octet: number): Network {
  const kit = KITS[account.cloud];
  const cidr = `10.${octet % 256}.0.0/16`;
  const base = account.role === 'workload' ? (account.apps[0] ?? 'app') : account.role;
  const vpc = b.add({
    type: kit.network,
    account,
    region: account.cloud === 'GCP' ? 'global' : region,
    base: `${base}-${account.env}-net`,
    tags: tags(account),
    metadata: { cidr_block: cidr, is_default: false },
  });
  b.contain(account, vpc);
  const net: Network = {
    account,
    region,
    kit,
    vpc,
    cidr,
    publicSubnets: [],
    privateSubnets: [],
    privateRoutes: [],
    tierGroups: {},
  };
  const subnet = (tier: 'public' | 'private', i: number) => {
    const s = b.add({
      type: 'SUBNET',
      account,
      region,
      base: `${base}-${tier}`,
      tags: tags(account, tier === 'public' ? PUBLIC : PRIVATE),
      metadata: { cidr_block: `10.${octet % 256}.${i * 16}.0/20`, vpc_id: vpc.arn },
      parent: vpc.arn ?? undefined,
    });
    b.link(vpc, 'CONTAINS', s, { relationship: 'VPC_CONTAINS_SUBNET' });
    (tier === 'public' ? net.publicSubnets : net.privateSubnets).push(s);
    return s;
  };

  if (account.cloud === 'AWS') {
    subnet('public', 0);
    subnet('public', 1);
    subnet('private', 2);
    subnet('private', 3);
    const igw = b.add({
      type: 'INTERNET_GATEWAY',
      account,
      region,
      base: `${base}-igw`,
      tags: tags(account),
    });
    b.link(igw, 'ATTACHED_TO', vpc);
    const nat = b.add({ type: 'NAT_GATEWAY', account, region, base: `${base}-nat`, tags: tags(account) });
    b.link(net.publicSubnets[0] ?? vpc, 'CONTAINS', nat, { relationship: 'SUBNET_CONTAINS_INSTANCE' });
    const rtPublic = b.add({ type: 'ROUTE_TABLE', account, region, base: `${base}-rt-public` });
    b.link(rtPublic, 'ROUTE', igw, { description: '0.0.0.0/0' });
    const rtPrivate = b.add({ type: 'ROUTE_TABLE', account, region, base: `${base}-rt-private` });
    b.link(rtPrivate, 'ROUTE', nat, { relationship: 'NAT_TRANSLATED', description: '0.0.0.0/0' });
    for (const s of net.publicSubnets) b.link(rtPublic, 'ATTACHED_TO', s);
    for (const s of net.privateSubnets) b.link(rtPrivate, 'ATTACHED_TO', s);
    net.privateRoutes.push(rtPrivate);
    const aclPublic = b.add({ type: 'NACL', account, region, base: `${base}-acl-public` });
    b.link('0.0.0.0/0', 'NACL_RULE', aclPublic, {
      port_range: '80,443',
      protocol: 'TCP',
      cidr: '0.0.0.0/0',
      direction: 'ingress',
    });
    b.link('0.0.0.0/0', 'NACL_RULE', aclPublic, {
      port_range: '1024-65535',
      protocol: 'TCP',
      cidr: '0.0.0.0/0',
      direction: 'ingress',
    });
    const aclPrivate = b.add({ type: 'NACL', account, region, base: `${base}-acl-private` });
    b.link('10.0.0.0/8', 'NACL_RULE', aclPrivate, {
      port_range: '0-65535',
      protocol: 'ALL',
      cidr: '10.0.0.0/8',
      direction: 'ingress',
    });
    for (const s of net.publicSubnets)
      b.link(s, 'ATTACHED_TO', aclPublic, { relationship: 'PROTECTED_BY_NACL' });
    for (const s of net.privateSubnets)
      b.link(s, 'ATTACHED_TO', aclPrivate, { relationship: 'PROTECTED_BY_NACL' });
  } else if (account.cloud === 'AZURE') {
    const front = subnet('public', 0);
    const app = subnet('private', 1);
    const data = subnet('private', 2);
    const nsg = (tier: 'front' | 'app' | 'data', s: CloudAsset) => {
      const g = b.add({ type: 'NSG', account, region, base: `${base}-nsg-${tier}`, tags: tags(account) });
      b.link(s, 'ATTACHED_TO', g, { relationship: 'PROTECTED_BY_SG' });
      net.tierGroups[tier] = g;
      return g;
    };
    // Azure NSG rules name their source by service tag as often as by CIDR.
    b.allow('Internet', nsg('front', front), '443');
    b.allow('VirtualNetwork', nsg('app', app), '8080');
    b.allow(`10.${octet % 256}.16.0/20`, nsg('data', data), '1433');
    const udr = b.add({ type: 'ROUTE_TABLE', account, region, base: `${base}-udr` });
    b.link(udr, 'ATTACHED_TO', app);
    b.link(udr, 'ATTACHED_TO', data);
    net.privateRoutes.push(udr);
  } else {
    subnet('public', 0);
    subnet('private', 1);
    for (const [rule, source, ports] of [
      ['allow-internal', '10.0.0.0/8', '0-65535'],
      ['allow-health-checks', '130.211.0.0/22', '8080'],
      ['allow-iap-ssh', '35.235.240.0/20', '22'],
    ] as const) {
      const fw = b.add({
        type: 'FIREWALL_RULE',
        account,
        region: 'global',
        base: `${base}-${rule}`,
        metadata: { direction: 'INGRESS', source_ranges: [source], allowed: [{ IPProtocol: 'tcp', ports }] },
      });
      b.link(fw, 'PROTECTS', vpc);
    }
    const router = b.add({ type: 'NAT_GATEWAY', account, region, base: `${base}-cloud-nat` });
    const route = b.add({ type: 'ROUTE_TABLE', account, region: 'global', base: `${base}-default-route` });
    b.link(route, 'ROUTE', router, { relationship: 'NAT_TRANSLATED', description: '0.0.0.0/0' });
    b.link(route, 'ATTACHED_TO', vpc);
    net.privateRoutes.push(route);
  }
  return net;
}

/** The hub of a cloud: the network spokes peer with and the router they send traffic to. */
export function buildHub(b: EstateBuilder, account: Account, octet: number): Hub {
  const region = account.regions[0] ?? 'global';
  const network = buildNetwork(b, account, region, octet);
  const type =
    account.cloud === 'AWS'
      ? 'TRANSIT_GATEWAY'
      : account.cloud === 'AZURE'
        ? 'AZURE_FIREWALL'
        : 'NAT_GATEWAY';
  const router = b.add({
    type,
    account,
    region,
    base: `hub-${type.toLowerCase().replace(/_/g, '-')}`,
    tags: { env: 'shared', 'managed-by': 'terraform' },
  });
  b.link(network.vpc, 'ATTACHED_TO', router);
  return { network, router };
}

/**
 * Connect a spoke to its hub: a peering (through a peering connection on AWS, both directions
 * on Azure and GCP) or, on AWS, a route to the transit gateway; both cross accounts.
 */
export function connectSpoke(b: EstateBuilder, spoke: Network, hub: Hub, peer: boolean): void {
  const cross = { cross_account: spoke.account.id !== hub.network.account.id };
  if (!peer) {
    for (const rt of spoke.privateRoutes)
      b.link(rt, 'ROUTE', hub.router, { relationship: 'TRANSIT_ROUTED', properties: cross });
    return;
  }
  if (spoke.account.cloud === 'AWS') {
    const pcx = b.add({
      type: 'VPC_PEERING',
      account: spoke.account,
      region: spoke.region,
      base: `${spoke.vpc.name}-to-hub`,
      metadata: { requester_vpc: spoke.vpc.arn, accepter_vpc: hub.network.vpc.arn, status: 'active' },
    });
    b.link(spoke.vpc, 'PEERING', pcx, { relationship: 'VPC_PEERED' });
    b.link(pcx, 'PEERING', hub.network.vpc, { relationship: 'VPC_PEERED', properties: cross });
    return;
  }
  b.link(spoke.vpc, 'PEERING', hub.network.vpc, { relationship: 'VPC_PEERED', properties: cross });
  b.link(hub.network.vpc, 'PEERING', spoke.vpc, { relationship: 'VPC_PEERED', properties: cross });
}
