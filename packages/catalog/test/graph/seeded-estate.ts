import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';

/**
 * A small seeded estate for graph cross-checks: accounts with VPCs, subnets, security groups,
 * load balancers, instances, ENIs, roles and data stores, internet rules (some egress), identity
 * grants and trusts across accounts, reverse-direction edges and deliberately parallel edges
 * (rules to merge, and other types that replace them). Deterministic from the seed.
 */

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seededEstate(seed: number, accounts: number): { assets: CloudAsset[]; edges: NetworkEdge[] } {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const assets: CloudAsset[] = [];
  const edges: NetworkEdge[] = [];
  const byType = new Map<string, string[]>();
  const asset = (id: string, type: string, account: string, exposed = false): string => {
    assets.push({
      id,
      arn: `arn:aws:test:eu-west-1:${account}:${type.toLowerCase()}/${id}`,
      name: id,
      asset_type: type,
      provider: 'AWS',
      region: 'eu-west-1',
      account_id: account,
      tags: {},
      metadata: {},
      collected_at: null,
      is_internet_exposed: exposed,
    });
    const list = byType.get(type) ?? [];
    list.push(id);
    byType.set(type, list);
    return id;
  };
  let n = 0;
  const edge = (source: string, target: string, type: string, extra: Partial<NetworkEdge> = {}) => {
    edges.push({
      id: `e${n++}`,
      source_id: source,
      target_id: target,
      edge_type: type,
      relationship: null,
      properties: {},
      description: null,
      ports: [],
      port_range: null,
      protocol: null,
      cidr: null,
      direction: 'ingress',
      ...extra,
    });
  };
  for (let a = 0; a < accounts; a++) {
    const acct = String(100000000000 + a);
    const account = asset(`acct-${a}`, 'CLOUD_ACCOUNT', acct);
    const vpc = asset(`vpc-${a}`, 'VPC', acct);
    edge(account, vpc, 'CONTAINS', { properties: { hierarchy: true } });
    const subnets = [0, 1, 2].map((s) => asset(`subnet-${a}-${s}`, 'SUBNET', acct));
    for (const s of subnets) edge(vpc, s, 'CONTAINS');
    const groups = [0, 1, 2, 3].map((g) => asset(`sg-${a}-${g}`, 'SECURITY_GROUP', acct));
    for (const g of groups) {
      const roll = random();
      if (roll < 0.3) {
        edge('0.0.0.0/0', g, 'SECURITY_GROUP_RULE', {
          port_range: '443',
          protocol: 'TCP',
          cidr: '0.0.0.0/0',
        });
        // A parallel rule on the same pair merges; sometimes a second kind replaces it.
        edge('0.0.0.0/0', g, 'SECURITY_GROUP_RULE', { port_range: '22', protocol: 'TCP', cidr: '0.0.0.0/0' });
      } else if (roll < 0.4) {
        edge(g, '0.0.0.0/0', 'SECURITY_GROUP_RULE', {
          protocol: 'ALL',
          cidr: '0.0.0.0/0',
          direction: 'egress',
        });
      }
      edge(pick(groups), g, 'SECURITY_GROUP_RULE', { port_range: '8080', protocol: 'TCP' });
    }
    const roles = [0, 1, 2, 3, 4].map((r) => asset(`role-${a}-${r}`, 'IAM_ROLE', acct));
    const stores = [
      asset(`db-${a}`, 'RDS_INSTANCE', acct),
      asset(`bucket-${a}`, 'S3_BUCKET', acct, random() < 0.05),
      asset(`secret-${a}`, 'SECRET', acct),
      asset(`key-${a}`, 'KMS_KEY', acct),
    ];
    const lb = asset(`lb-${a}`, 'LOAD_BALANCER', acct, random() < 0.5);
    const tg = asset(`tg-${a}`, 'TARGET_GROUP', acct);
    if (random() < 0.5) edge('0.0.0.0/0', lb, 'INTERNET_EXPOSED', { cidr: '0.0.0.0/0', port_range: '443' });
    edge(lb, pick(groups), 'ATTACHED_TO');
    edge(lb, tg, 'LOAD_BALANCER_TARGET');
    edge(pick(subnets), lb, 'CONTAINS');
    for (let i = 0; i < 12; i++) {
      const vm = asset(`vm-${a}-${i}`, 'EC2', acct, random() < 0.03);
      edge(pick(subnets), vm, 'CONTAINS');
      edge(vm, pick(groups), 'ATTACHED_TO', random() < 0.2 ? { relationship: 'PROTECTED_BY_SG' } : {});
      if (random() < 0.4) edge(tg, vm, 'LOAD_BALANCER_TARGET');
      edge(vm, pick(roles), 'ASSUMES_ROLE');
      if (random() < 0.2) {
        const eni = asset(`eni-${a}-${i}`, 'NETWORK_INTERFACE', acct);
        edge(eni, vm, 'ATTACHED_TO');
        edge(pick(subnets), eni, 'CONTAINS');
      }
      if (random() < 0.1) {
        // A parallel edge of another kind replaces the first on the pair.
        const role = pick(roles);
        edge(vm, role, 'ASSUMES_ROLE');
        edge(vm, role, 'REFERENCES');
      }
    }
    for (const r of roles) {
      edge(r, pick(stores), 'GRANTS_ACCESS');
      if (random() < 0.3)
        edge(r, `role-${Math.floor(random() * accounts)}-${Math.floor(random() * 5)}`, 'IAM_TRUST');
    }
    for (const s of stores.slice(0, 3)) edge(s, stores[3] as string, 'REFERENCES');
    const fn = asset(`fn-${a}`, 'LAMBDA_FUNCTION', acct);
    edge(stores[1] as string, fn, 'INVOKES');
    edge(fn, pick(roles), 'ASSUMES_ROLE');
    edge(pick(subnets), stores[0] as string, 'CONTAINS');
    edge(stores[0] as string, pick(groups), 'ATTACHED_TO');
  }
  return { assets, edges };
}
