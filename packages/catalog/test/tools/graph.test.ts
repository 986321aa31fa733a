import type { Layer, ToolResult } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { graphLayer } from './graph-support.js';
import { call, callError } from './support.js';

/** The graph tools reproduce the reference's examples on the bundled sample estate. */

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await graphLayer());
});

type Obj = Record<string, unknown>;
const ids = (list: unknown) => (list as Obj[]).map((n) => n.id);
const summaries = (result: Obj) => (result.paths as Obj[]).map((p) => p.summary);
const links = (r: ToolResult) =>
  r.content.flatMap((c) => (c.type === 'resource_link' ? [[c.uri, c.name]] : []));

describe('neighbors', () => {
  it('lists the five neighbours of web-1 and the edges in dataset order, with a neighbors link', async () => {
    const r = await layer.callTool('neighbors', { ref: 'web-1' });
    const s = r.structured as Obj;
    expect((s.asset as Obj).id).toBe('web-1');
    expect(ids(s.nodes).slice(0, 2)).toEqual(['subnet-private', 'sg-app']);
    expect(ids(s.edges).slice(0, 2)).toEqual(['e-priv-web1', 'e-web1-sg']);
    expect([s.node_count, s.edge_count, s.truncated]).toEqual([5, 5, false]);
    expect((s.edges as Obj[])[0]).toEqual({
      id: 'e-priv-web1',
      source: 'subnet-private',
      source_name: 'prod-private-a',
      target: 'web-1',
      target_name: 'web-1',
      edge_type: 'CONTAINS',
      relationship: null,
    });
    expect(links(r)).toEqual([['cloudg://assets/web-1/neighbors', 'neighbors']]);
  });

  it('follows identity edges two hops out from a Lambda', async () => {
    const s = await call(layer, 'neighbors', {
      ref: 'api-handler',
      direction: 'out',
      edge_types: ['ASSUMES_ROLE', 'GRANTS_ACCESS'],
      depth: 2,
    });
    expect(ids(s.nodes)).toEqual(['lambda-role', 'db-secret']);
    expect(ids(s.edges)).toEqual(['e-lambda-role', 'e-lrole-secret']);
  });

  it('starts at 0.0.0.0/0 for the internet', async () => {
    const r = await layer.callTool('neighbors', { ref: 'internet', direction: 'out' });
    const s = r.structured as Obj;
    expect(s.asset).toEqual({ id: '0.0.0.0/0', name: '0.0.0.0/0', type: 'EXTERNAL', external: true });
    expect(ids(s.nodes).slice(0, 2)).toEqual(['sg-web', 'sg-admin']);
    expect([s.node_count, s.edge_count]).toEqual([7, 7]);
    expect((s.edges as Obj[])[0]).toMatchObject({
      port_range: '80,443',
      ports: [443, 80],
      direction: 'ingress',
    });
    expect(links(r)).toEqual([['cloudg://assets/0.0.0.0%2F0/neighbors', 'neighbors']]);
  });

  it('caps nodes at limit and edges at twice that', async () => {
    const s = await call(layer, 'neighbors', { ref: 'internet', direction: 'out', limit: 2 });
    expect([s.node_count, s.truncated]).toEqual([2, true]);
  });

  it('refuses a depth above 4 and an unknown edge type, as documented', async () => {
    expect(await callError(layer, 'neighbors', { ref: 'web-1', depth: 9 })).toEqual({
      text: 'Invalid arguments: depth: Input should be less than or equal to 4',
      code: -32602,
      data: [{ loc: 'depth', msg: 'Input should be less than or equal to 4', type: 'less_than_equal' }],
    });
    const e = await callError(layer, 'neighbors', { ref: 'web-1', edge_types: ['ASSUMES'] });
    expect(e.text).toMatch(
      /^Unknown edge type\. Did you mean ASSUMES_ROLE\? Valid values: SECURITY_GROUP_RULE, NACL_RULE/,
    );
    expect((e.data as Obj).close_matches).toEqual(['ASSUMES_ROLE']);
  });

  it('suggests close matches for an unknown asset, like the inventory tools', async () => {
    const e = await callError(layer, 'neighbors', { ref: 'web-3' });
    expect(e.text).toMatch(/^No asset matches the reference in this dataset\./);
    expect(ids((e.data as Obj).suggestions)).toContain('web-1');
  });
});

describe('get_edges', () => {
  it('finds the one rule opening SSH to the internet', async () => {
    const s = await call(layer, 'get_edges', { internet_only: true, port: 22 });
    expect([s.total, s.truncated, ids(s.items)]).toEqual([1, false, ['e-inet-sgadmin']]);
  });

  it('finds the two cross-account trusts', async () => {
    const s = await call(layer, 'get_edges', { edge_types: ['IAM_TRUST'], cross_account_only: true });
    expect(ids(s.items)).toEqual(['e-app-deploy', 'e-vendor-deploy']);
    expect((s.items as Obj[])[1]).toMatchObject({ relationship: 'CROSS_ACCOUNT_TRUST', cross_account: true });
  });

  it('pages over all 56 edges', async () => {
    const first = await call(layer, 'get_edges', { limit: 2 });
    expect([first.total, first.returned, first.truncated, ids(first.items)]).toEqual([
      56,
      2,
      true,
      ['e-org-ou', 'e-ou-prod'],
    ]);
    const second = await call(layer, 'get_edges', { limit: 2, cursor: first.next_cursor });
    expect(ids(second.items)).toEqual(['e-ou-shared', 'e-scp']);
  });

  it('takes references for source and target, and fails on an unknown one', async () => {
    const s = await call(layer, 'get_edges', { source: 'web-1', target: 'app-role' });
    expect(ids(s.items)).toEqual(['e-web1-role']);
    const e = await callError(layer, 'get_edges', { source: 'no-such-thing' });
    expect([e.code, e.text.startsWith('No asset matches')]).toEqual([-32602, true]);
  });
});

describe('find_paths', () => {
  it('finds four flow paths from the internet to the orders database, shortest first', async () => {
    const s = await call(layer, 'find_paths', { source: 'internet', target: 'orders-db' });
    expect(s.source).toEqual({ id: '__internet__', name: 'internet', type: 'EXTERNAL', external: true });
    expect(summaries(s)).toEqual([
      '0.0.0.0/0 -> web-alb -> web-tg -> web-1 -> app-role -> orders-db',
      '0.0.0.0/0 -> web-alb -> web-tg -> web-2 -> app-role -> orders-db',
      '0.0.0.0/0 -> sg-web -> web-alb -> web-tg -> web-1 -> app-role -> orders-db',
      '0.0.0.0/0 -> sg-web -> web-alb -> web-tg -> web-2 -> app-role -> orders-db',
    ]);
    const first = (s.paths as Obj[])[0] as Obj;
    expect(first.length).toBe(5);
    expect((first.edge_types as string[]).slice(0, 3)).toEqual([
      'INTERNET_EXPOSED',
      'LOAD_BALANCER_TARGET',
      'LOAD_BALANCER_TARGET',
    ]);
    expect((first.nodes as Obj[])[1]).toEqual({
      id: 'alb-web',
      name: 'web-alb',
      type: 'LOAD_BALANCER',
      account_id: '111111111111',
      internet_exposed: true,
      open_findings: 0,
    });
    expect([s.total_found, s.truncated]).toEqual([4, false]);
  });

  it('reaches the bastion through its security group in flow mode only', async () => {
    const flow = await call(layer, 'find_paths', { source: 'internet', target: 'bastion', mode: 'flow' });
    expect(summaries(flow)).toEqual(['0.0.0.0/0 -> sg-admin -> bastion']);
    expect((flow.paths as Obj[])[0]?.edge_types).toEqual(['SECURITY_GROUP_RULE', 'SG_ADMITS']);
    const directed = await call(layer, 'find_paths', {
      source: 'internet',
      target: 'bastion',
      mode: 'directed',
    });
    expect([directed.paths, directed.total_found, directed.truncated]).toEqual([[], 0, false]);
    expect(directed.hint).toBe(
      "No path within 6 hops in 'directed' mode. Try mode='undirected' or a larger max_depth, or check neighbors() of each end.",
    );
    const undirected = await call(layer, 'find_paths', {
      source: 'internet',
      target: 'bastion',
      mode: 'undirected',
    });
    expect((undirected.paths as Obj[])[0]?.summary).toBe('0.0.0.0/0 -> sg-admin -> bastion');
  });

  it('says truncated only when another path within max_depth exists', async () => {
    const s = await call(layer, 'find_paths', { source: 'internet', target: 'orders-db', max_paths: 3 });
    expect([s.total_found, s.truncated]).toEqual([3, true]);
    const short = await call(layer, 'find_paths', { source: 'internet', target: 'orders-db', max_depth: 5 });
    expect([short.total_found, short.truncated]).toEqual([2, false]);
  });

  it('refuses the internet as a target', async () => {
    const e = await callError(layer, 'find_paths', { source: 'web-1', target: 'internet' });
    expect(e.code).toBe(-32602);
    expect(e.text).toMatch(/^target cannot be the internet/);
  });

  it('fails with the documented message on a dataset without an internet node', async () => {
    const { layer: own, ws } = await graphLayer();
    const ds = ws.get('sample');
    ds.edges = ds.edges.filter((e) => e.source_id !== '0.0.0.0/0');
    ds.touch();
    const e = await callError(own, 'find_paths', { source: 'internet', target: 'orders-db' });
    expect(e.code).toBe(-32602);
    expect(e.text).toBe(
      'This dataset has no internet node (no internet-sourced ingress rules or INTERNET_EXPOSED edges). Use internet_exposure to see assets flagged as exposed.',
    );
  });
});

describe('attack_paths', () => {
  it('ranks routes to the crown jewels as documented', async () => {
    const s = await call(layer, 'attack_paths', { max_paths: 3 });
    expect(summaries(s)).toEqual([
      'web-alb -> web-tg -> web-1 -> app-role -> orders-db',
      'bastion -> bastion-admin -> orders-db-credentials',
      'jump-vm -> hub-kv',
    ]);
    expect((s.paths as Obj[]).map((p) => [p.entry, p.target_weight, p.findings_on_path, p.score])).toEqual([
      ['internet-exposed asset', 10, 2, 9.8],
      ['internet-exposed asset', 9, 1, 8.9],
      ['internet-exposed asset', 9, 0, 8.7],
    ]);
    expect([s.total_found, s.truncated, s.targets_considered]).toEqual([11, true, 14]);
  });

  it('weighs an explicit target 10', async () => {
    const s = await call(layer, 'attack_paths', { target: 'db-secret' });
    expect(summaries(s)).toEqual(['bastion -> bastion-admin -> orders-db-credentials']);
    expect((s.paths as Obj[])[0]).toMatchObject({ target_weight: 10, findings_on_path: 1, score: 9.9 });
    expect([s.total_found, s.truncated, s.targets_considered]).toEqual([1, false, 1]);
  });

  it('returns no paths and a hint when nothing is exposed', async () => {
    const { layer: own, ws } = await graphLayer();
    const ds = ws.get('sample');
    ds.edges = ds.edges.filter((e) => e.source_id !== '0.0.0.0/0');
    for (const a of ds.assets) a.is_internet_exposed = false;
    ds.touch();
    const s = await call(own, 'attack_paths', {});
    expect([s.paths, s.total_found, s.targets_considered]).toEqual([[], 0, 14]);
    expect(s.hint).toMatch(/internet_exposure/);
  });
});

describe('lateral_movement_paths', () => {
  it('ranks identity chains from every foothold', async () => {
    const s = await call(layer, 'lateral_movement_paths', { max_paths: 4 });
    expect(summaries(s).slice(0, 2)).toEqual([
      'jump-vm -> hub-kv',
      'bastion -> bastion-admin -> orders-db-credentials',
    ]);
    expect([s.total_found, s.truncated, s.starting_points]).toEqual([5, true, 7]);
  });

  it('walks from one foothold', async () => {
    const s = await call(layer, 'lateral_movement_paths', { start: 'web-1' });
    expect(summaries(s)).toEqual([
      'web-1 -> app-role -> orders-db',
      'web-1 -> app-role -> prod-data',
      'web-1 -> app-role -> deploy-role -> shared-artifacts',
      'web-1 -> app-role -> deploy-role -> app-images',
    ]);
    expect([s.total_found, s.truncated, s.starting_points]).toEqual([4, false, 1]);
  });
});

describe('internet_exposure', () => {
  it('lists the six exposed assets with their rules and sensitive ports', async () => {
    const s = await call(layer, 'internet_exposure', { limit: 3 });
    expect([s.total, s.returned, s.truncated]).toEqual([6, 3, true]);
    const [bastion, vm] = s.items as Obj[];
    expect(bastion).toMatchObject({
      id: 'bastion',
      internet_rules: [{ edge_type: 'SECURITY_GROUP_RULE', ports: '22', protocol: 'TCP', via: 'sg-admin' }],
      sensitive_ports_open: [22],
      protected_by_waf: false,
    });
    expect(vm).toMatchObject({
      id: 'az-vm',
      internet_rules: [{ edge_type: 'SECURITY_GROUP_RULE', ports: '3389', protocol: 'TCP', via: 'jump-nsg' }],
      sensitive_ports_open: [3389],
    });
  });

  it('adds what the reachability walk reaches from the internet', async () => {
    const s = await call(layer, 'internet_exposure', {
      asset_types: ['S3_BUCKET'],
      include_reachable: true,
      limit: 3,
    });
    expect(ids(s.items)).toEqual(['logs-bucket']);
    expect((s.items as Obj[])[0]).toMatchObject({
      internet_rules: [
        { edge_type: 'INTERNET_EXPOSED', ports: 'all', protocol: null, via: 'bucket policy Principal *' },
      ],
      sensitive_ports_open: [],
    });
    const reach = s.graph_reachable as Obj;
    expect([reach.total, reach.truncated, ids(reach.items).slice(0, 2)]).toEqual([
      12,
      true,
      ['alb-web', 'api-gw'],
    ]);
  });

  it('sees the WAF in front of the load balancer', async () => {
    const s = await call(layer, 'internet_exposure', { asset_types: ['LOAD_BALANCER'] });
    expect((s.items as Obj[])[0]).toMatchObject({ id: 'alb-web', protected_by_waf: true });
  });
});

describe('blast_radius', () => {
  it('finds the twelve dependents of the KMS key, and that it reaches nothing', async () => {
    const r = await layer.callTool('blast_radius', { ref: 'kms-main', limit: 3 });
    const s = r.structured as Obj;
    expect(s.dependency).toMatchObject({
      transitive_dependents: 12,
      by_depth: { '1': 4, '2': 3, '3': 3, '4': 1, '5': 1 },
      accounts_affected: ['111111111111'],
      internet_exposed_dependents: 2,
      truncated: true,
    });
    expect(((s.dependency as Obj).items as Obj[])[0]).toMatchObject({
      id: 'api-handler',
      via: 'REFERENCES',
      relationship: 'ENCRYPTED_BY_KMS',
      depth: 1,
      parent_id: 'kms-main',
    });
    expect(ids((s.dependency as Obj).items)).toEqual(['api-handler', 'data-bucket', 'orders-db']);
    expect(s.network).toEqual({ reachable_assets: 0, max_depth: 0, risk_score: 0, sensitive_reachable: [] });
    expect(links(r)).toEqual([['cloudg://assets/kms-main', 'prod-main-key']]);
  });

  it('shows a role with few dependents and a wide reach', async () => {
    const s = await call(layer, 'blast_radius', { ref: 'app-role', limit: 5 });
    expect(s.dependency).toMatchObject({
      transitive_dependents: 4,
      by_depth: { '1': 2, '2': 1, '3': 1 },
      internet_exposed_dependents: 1,
      truncated: false,
    });
    expect(ids((s.dependency as Obj).items).slice(0, 2)).toEqual(['web-1', 'web-2']);
    const network = s.network as Obj;
    expect([network.reachable_assets, network.max_depth, network.risk_score]).toEqual([11, 4, 7.5]);
    expect(ids(network.sensitive_reachable).slice(0, 2)).toEqual(['artifacts-bucket', 'data-bucket']);
    expect((network.sensitive_reachable as Obj[]).length).toBe(5);
  });
});

describe('graph_stats', () => {
  it('describes the relationship graph of the sample estate', async () => {
    const s = await call(layer, 'graph_stats', {});
    expect(s).toMatchObject({
      nodes: 45,
      asset_nodes: 44,
      placeholder_nodes: 1,
      edges: 56,
      graph_edges: 56,
      edges_by_relationship: {
        INTERNET_REACHABLE: 4,
        ENCRYPTED_BY_KMS: 4,
        CROSS_ACCOUNT_TRUST: 2,
        READS_FROM: 1,
        TRIGGERED_BY: 1,
      },
      components: 3,
      largest_component: 43,
      isolated_assets: 2,
      density: 0.028283,
      mean_degree: 2.489,
    });
    expect(Object.entries(s.edges_by_type as Obj).slice(0, 5)).toEqual([
      ['CONTAINS', 12],
      ['GOVERNS', 1],
      ['SECURITY_GROUP_RULE', 4],
      ['INTERNET_EXPOSED', 4],
      ['ATTACHED_TO', 6],
    ]);
  });
});

describe('metadata', () => {
  it('declares the category, sensitivity, capability, annotations and output schemas of the index', async () => {
    const tools = new Map(layer.listTools().map((t) => [t.name, t]));
    const withSchema = ['neighbors', 'get_edges', 'find_paths', 'attack_paths', 'lateral_movement_paths'];
    const without = ['internet_exposure', 'blast_radius', 'graph_stats'];
    for (const name of [...withSchema, ...without]) {
      const spec = tools.get(name);
      expect(spec?.category, name).toBe('graph');
      expect(spec?.sensitivity, name).toBe(name === 'graph_stats' ? 'internal' : 'confidential');
      expect([...(spec?.capabilities ?? [])], name).toEqual(['read_state']);
      expect(spec?.annotations, name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(spec?.outputSchema !== undefined, name).toBe(withSchema.includes(name));
    }
  });
});

describe('list_capabilities', () => {
  it('lists the graph tools and sends workflows only to registered tools', async () => {
    const s = await call(layer, 'list_capabilities', {});
    const graph = ((s.categories as Obj).graph as Obj[]).map((t) => t.name);
    for (const name of ['neighbors', 'get_edges', 'find_paths', 'attack_paths', 'graph_stats'])
      expect(graph).toContain(name);
    const workflows = s.workflows as Record<string, string[]>;
    expect(workflows['attack surface']).toEqual([
      'internet_exposure',
      'attack_paths',
      'find_paths',
      'lateral_movement_paths',
    ]);
    const registered = new Set(layer.listTools().map((t) => t.name));
    for (const steps of Object.values(workflows))
      for (const step of steps)
        for (const tool of step.split(' / ')) expect(registered.has(tool), tool).toBe(true);
  });
});
