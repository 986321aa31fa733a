/**
 * The documented shape of the estate: three clouds and many accounts, an organization,
 * cross-account trust, a few per cent exposed, crown jewels of every weight class, findings
 * from all four scanners, the hostile shapes, only vocabulary the model knows, and flow paths
 * from the internet to crown jewels under the documented walk (and jewels it cannot reach).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, checkRequirement } from '../../bench/estate/checks.js';
import { type GeneratedEstate, generateEstate } from '../../bench/estate/index.js';
import { CROWN_JEWEL_WEIGHTS } from '../../src/conventions/risk.js';
import { ASSET_TYPES } from '../../src/index.js';
import { EDGE_TYPES } from '../../src/model/vocabulary.js';

let estate: GeneratedEstate;
beforeAll(() => {
  estate = generateEstate({ seed: 5, assets: 4000 });
});

/**
 * Assets reached from the internet over the flow view as MCP_TOOLS.md "Graph" documents it:
 * traffic hops (INTERNET_EXPOSED, ingress rules, ROUTE, PEERING, LOAD_BALANCER_TARGET, CONTAINS
 * out of a network or subnet, ATTACHED_TO forward from an interface or public IP and backwards
 * from a group) plus the identity pivots (ASSUMES_ROLE, IAM_TRUST, GRANTS_ACCESS).
 */
function flowReach(e: GeneratedEstate): Set<string> {
  const type = new Map(e.assets.map((a) => [a.id, a.asset_type]));
  const next = new Map<string, string[]>();
  const add = (from: string, to: string) => {
    const list = next.get(from);
    if (list) list.push(to);
    else next.set(from, [to]);
  };
  for (const edge of e.edges) {
    const s = edge.source_id;
    const t = edge.target_id;
    switch (edge.edge_type) {
      case 'SECURITY_GROUP_RULE':
      case 'NACL_RULE':
        if (edge.direction !== 'egress') add(s, t);
        break;
      case 'INTERNET_EXPOSED':
      case 'ROUTE':
      case 'PEERING':
      case 'LOAD_BALANCER_TARGET':
      case 'ASSUMES_ROLE':
      case 'IAM_TRUST':
      case 'GRANTS_ACCESS':
        add(s, t);
        break;
      case 'CONTAINS':
        if (['VPC', 'VNET', 'SUBNET'].includes(type.get(s) ?? '')) add(s, t);
        break;
      case 'ATTACHED_TO':
        if (['SECURITY_GROUP', 'NSG', 'NACL'].includes(type.get(t) ?? '')) add(t, s);
        else if (['NETWORK_INTERFACE', 'ELASTIC_IP', 'PUBLIC_IP'].includes(type.get(s) ?? '')) add(s, t);
        break;
    }
  }
  const internet = new Set(['0.0.0.0/0', '::/0', 'Internet', 'Any', '*']);
  const start = [
    ...e.edges.filter((x) => internet.has(x.source_id)).map((x) => x.source_id),
    ...e.assets.filter((a) => a.is_internet_exposed).map((a) => a.id),
  ];
  const seen = new Set(start);
  const queue = [...seen];
  for (let i = 0; i < queue.length; i += 1)
    for (const n of next.get(queue[i] ?? '') ?? [])
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
  return seen;
}

describe('the generated estate', () => {
  it('spans three clouds, many accounts and an organization', () => {
    const s = estate.summary;
    for (const cloud of ['AWS', 'AZURE', 'GCP'] as const) {
      expect(s.clouds[cloud].assets, cloud).toBeGreaterThan(300);
      expect(s.clouds[cloud].accounts, cloud).toBeGreaterThanOrEqual(2);
    }
    expect(s.accounts).toBeGreaterThanOrEqual(8);
    expect(estate.organization.ous).not.toEqual({});
    expect(s.assets_by_type.ORGANIZATION).toBe(2);
    expect(s.assets_by_type.MANAGEMENT_GROUP).toBeGreaterThan(0);
    expect(s.assets_by_type.FOLDER).toBeGreaterThan(0);
  });

  it('uses only the edge types and asset types the model knows', () => {
    const known = new Set<string>(EDGE_TYPES);
    expect(estate.edges.filter((e) => !known.has(e.edge_type))).toEqual([]);
    const types = new Set(ASSET_TYPES);
    expect(Object.keys(estate.summary.assets_by_type).filter((t) => !types.has(t))).toEqual([]);
  });

  it('holds the parts of a real estate', () => {
    const t = estate.summary.assets_by_type;
    for (const type of [
      'VPC',
      'VNET',
      'VPC_NETWORK',
      'SUBNET',
      'ROUTE_TABLE',
      'INTERNET_GATEWAY',
      'NAT_GATEWAY',
      'TRANSIT_GATEWAY',
      'SECURITY_GROUP',
      'NSG',
      'NACL',
      'FIREWALL_RULE',
      'LOAD_BALANCER',
      'TARGET_GROUP',
      'EC2',
      'VIRTUAL_MACHINE',
      'GCE_INSTANCE',
      'LAMBDA_FUNCTION',
      'K8S_WORKLOAD',
      'CONTAINER_REGISTRY',
      'IAM_ROLE',
      'IAM_USER',
      'MANAGED_IDENTITY',
      'SERVICE_ACCOUNT',
    ])
      expect(t[type], type).toBeGreaterThan(0);
    const e = estate.summary.edges_by_type;
    for (const type of [
      'PEERING',
      'ROUTE',
      'NACL_RULE',
      'SECURITY_GROUP_RULE',
      'INTERNET_EXPOSED',
      'IAM_TRUST',
    ])
      expect(e[type], type).toBeGreaterThan(0);
  });

  it('trusts across accounts, external vendors included', () => {
    const s = estate.summary;
    expect(s.cross_account_trust).toBeGreaterThan(0);
    expect(s.cross_account_edges).toBeGreaterThan(s.cross_account_trust);
    expect(s.external_accounts).toBeGreaterThan(0);
  });

  it('exposes a few per cent of its assets to the internet', () => {
    expect(estate.summary.exposed_share).toBeGreaterThanOrEqual(0.01);
    expect(estate.summary.exposed_share).toBeLessThanOrEqual(0.1);
  });

  it('has crown jewels of every weight class, some reachable from the internet and most not', () => {
    for (const weight of ['10', '9', '8', '7', '6', '5'])
      expect(estate.summary.crown_jewels[weight], weight).toBeGreaterThan(0);
    const reached = flowReach(estate);
    const jewels = estate.assets.filter((a) => (CROWN_JEWEL_WEIGHTS[a.asset_type] ?? 0) === 10);
    const reachable = jewels.filter((a) => reached.has(a.id));
    expect(reachable.length).toBeGreaterThan(0);
    expect(reachable.length).toBeLessThan(jewels.length);
    // The probes name real flow paths: entry exposed, target reached.
    const probe = estate.summary.probes.flow[0];
    expect(probe?.hops).toBeGreaterThanOrEqual(3);
    const byName = new Map(estate.assets.map((a) => [a.name, a]));
    expect(byName.get(probe?.entry ?? '')?.is_internet_exposed).toBe(true);
    expect(reached.has(byName.get(probe?.target ?? '')?.id ?? '')).toBe(true);
  });

  it('has findings from all four scanners, about two per asset', () => {
    const s = estate.summary;
    expect(s.findings).toBe(8000);
    for (const scanner of ['prowler', 'scoutsuite', 'checkov', 'trivy'] as const)
      expect(s.findings_by_scanner[scanner], scanner).toBeGreaterThan(s.findings * 0.1);
    expect(Object.keys(s.findings_by_severity).sort()).toEqual(['CRITICAL', 'HIGH', 'LOW', 'MEDIUM']);
  });

  it('fails exposure and disabled-service checks only where the configuration says so', () => {
    const internet = new Set(['0.0.0.0/0', '::/0', 'Internet', 'Any', '*']);
    const open = new Set(
      estate.edges
        .filter(
          (e) => ['SECURITY_GROUP_RULE', 'NACL_RULE'].includes(e.edge_type) && internet.has(e.source_id),
        )
        .map((e) => e.target_id),
    );
    const byName = new Map(estate.assets.map((a) => [a.name, a]));
    const byArn = new Map(estate.assets.map((a) => [a.arn, a]));
    const checks = new Map(
      [...CHECKS.prowler, ...CHECKS.scoutsuite, ...CHECKS.checkov].map((c) => [`${c.scanner}:${c.id}`, c]),
    );
    let judged = 0;
    for (const f of estate.findings) {
      const check = checks.get(`${f.source_tool}:${String(f.check_id)}`);
      const needs = check ? checkRequirement(check) : null;
      if (!needs) continue;
      const asset = byArn.get(f.resource_arn) ?? byName.get(f.resource_id ?? '');
      expect(asset, f.title).toBeDefined();
      if (!asset) continue;
      if (needs === 'open') expect(open.has(asset.id), f.title).toBe(true);
      else if (needs === 'disabled') expect(asset.metadata.enabled, f.title).toBe(false);
      else expect(asset.is_internet_exposed || open.has(asset.id), f.title).toBe(true);
      judged += 1;
    }
    expect(judged).toBeGreaterThan(0);
  });

  it('includes the hostile shapes: a hub, long chains and dense cliques', () => {
    const { hub, chains, cliques } = estate.summary.hostile;
    const hubEdges = estate.edges.filter((e) => e.target_id === hub.id).length;
    expect(hubEdges).toBeGreaterThanOrEqual(hub.edges);
    expect(hub.edges).toBeGreaterThan(estate.assets.length * 0.3);
    expect(chains.map((c) => c.length)).toEqual([expect.any(Number), expect.any(Number)]);
    for (const chain of chains) expect(chain.length, chain.kind).toBeGreaterThanOrEqual(12);
    for (const clique of cliques) {
      expect(clique.size, clique.kind).toBeGreaterThanOrEqual(6);
      expect(clique.edges, clique.kind).toBeGreaterThanOrEqual(clique.size * (clique.size - 1));
    }
  });
});
