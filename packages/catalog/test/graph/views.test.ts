import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildRelationshipGraph,
  dependencyGraph,
  flowGraph,
  hopLabel,
  internetEntryPoints,
  relationshipGraph,
  walkDependencies,
} from '../../src/graph/index.js';
import type { Dataset } from '../../src/index.js';
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import { sampleWorkspace } from '../support/estate.js';

let ds: Dataset;
beforeAll(async () => {
  ds = (await sampleWorkspace()).get('sample');
});

function rule(source: string, target: string, extra: Partial<NetworkEdge>): NetworkEdge {
  return {
    id: `${source}-${target}-${extra.port_range ?? ''}-${extra.protocol ?? ''}`,
    source_id: source,
    target_id: target,
    edge_type: 'SECURITY_GROUP_RULE',
    relationship: null,
    properties: {},
    description: null,
    ports: [],
    port_range: null,
    protocol: 'TCP',
    cidr: '0.0.0.0/0',
    direction: 'ingress',
    ...extra,
  };
}

const sg = { id: 'sg-alb', name: 'sg-alb', asset_type: 'SECURITY_GROUP' } as unknown as CloudAsset;

describe('relationship graph', () => {
  it('has the sample estate shape: 44 assets, the 0.0.0.0/0 placeholder, 56 edges', () => {
    const g = relationshipGraph(ds);
    expect(g.order).toBe(45);
    expect(g.size).toBe(56);
    expect(g.getNodeAttribute('0.0.0.0/0', 'asset')).toBeNull();
  });

  it('merges parallel rules with the same CIDR and direction into comma lists', () => {
    const g = buildRelationshipGraph(
      [sg],
      [
        rule('0.0.0.0/0', 'sg-alb', { port_range: '443', description: 'HTTPS from anywhere' }),
        rule('0.0.0.0/0', 'sg-alb', { port_range: '80', description: 'HTTP redirect' }),
      ],
    );
    expect(g.size).toBe(1);
    const merged = g.getEdgeAttributes(g.edge('0.0.0.0/0', 'sg-alb') as string);
    expect(merged.port_range).toBe('443,80');
    expect(merged.protocol).toBe('TCP');
    expect(merged.description).toBe('HTTPS from anywhere; HTTP redirect');
    expect(merged.edge_ids).toHaveLength(2);
  });

  it('adds no port for ICMP, every port for a port-less TCP rule, and lists protocols', () => {
    const icmp = buildRelationshipGraph(
      [sg],
      [rule('0.0.0.0/0', 'sg-alb', { port_range: '22' }), rule('0.0.0.0/0', 'sg-alb', { protocol: 'ICMP' })],
    );
    const a = icmp.getEdgeAttributes(icmp.edge('0.0.0.0/0', 'sg-alb') as string);
    expect([a.port_range, a.protocol]).toEqual(['22', 'TCP,ICMP']);
    const gcp = buildRelationshipGraph(
      [sg],
      [rule('0.0.0.0/0', 'sg-alb', { port_range: '22' }), rule('0.0.0.0/0', 'sg-alb', {})],
    );
    expect(gcp.getEdgeAttributes(gcp.edge('0.0.0.0/0', 'sg-alb') as string).port_range).toBe('22,0-65535');
  });

  it('replaces a parallel edge of another kind instead of merging it', () => {
    const g = buildRelationshipGraph(
      [sg],
      [
        rule('0.0.0.0/0', 'sg-alb', { port_range: '22' }),
        rule('0.0.0.0/0', 'sg-alb', { port_range: '443', cidr: '10.0.0.0/8' }),
      ],
    );
    const a = g.getEdgeAttributes(g.edge('0.0.0.0/0', 'sg-alb') as string);
    expect([a.port_range, a.cidr, a.edge_ids.length]).toEqual(['443', '10.0.0.0/8', 1]);
  });
});

describe('flow graph', () => {
  it('walks security groups backwards to what is attached to them, labelled SG_ADMITS', () => {
    const f = flowGraph(ds);
    const hop = f.getEdgeAttributes(f.edge('sg-admin', 'bastion') as string);
    expect(hopLabel(hop)).toBe('SG_ADMITS');
    expect(f.hasEdge('bastion', 'sg-admin')).toBe(false);
  });

  it('keeps identity pivots and drops INVOKES, egress and account containment', () => {
    const f = flowGraph(ds);
    expect(f.getEdgeAttribute(f.edge('web-1', 'app-role') as string, 'identity')).toBe(true);
    expect(f.hasEdge('api-gw', 'api-handler')).toBe(false);
    expect(f.hasEdge('acct-prod', 'vpc-prod')).toBe(false);
    expect(f.hasEdge('vpc-prod', 'subnet-public')).toBe(true);
  });
});

describe('dependency graph', () => {
  it('finds the twelve transitive dependents of the KMS key, by depth', () => {
    const links = walkDependencies(dependencyGraph(ds), 'kms-main', 'down', 10);
    expect(links).toHaveLength(12);
    const byDepth: Record<number, number> = {};
    for (const l of links) byDepth[l.depth] = (byDepth[l.depth] ?? 0) + 1;
    expect(byDepth).toEqual({ 1: 4, 2: 3, 3: 3, 4: 1, 5: 1 });
    expect(links.slice(0, 3).map((l) => l.asset_id)).toEqual(['api-handler', 'data-bucket', 'orders-db']);
  });

  it('skips containment by the organization, OUs and accounts', () => {
    const g = dependencyGraph(ds);
    expect(g.hasEdge('vpc-prod', 'acct-prod')).toBe(false);
    expect(g.hasEdge('subnet-public', 'vpc-prod')).toBe(true);
  });
});

describe('caching', () => {
  it('builds each view once per dataset version and drops it on touch()', async () => {
    const own = (await sampleWorkspace()).get('sample');
    const first = relationshipGraph(own);
    expect(relationshipGraph(own)).toBe(first);
    expect(own.isCached('graph')).toBe(true);
    own.touch();
    expect(own.isCached('graph')).toBe(false);
    expect(relationshipGraph(own)).not.toBe(first);
  });

  it('lists 0.0.0.0/0 as the first internet entry point', () => {
    expect(internetEntryPoints(ds)[0]).toBe('0.0.0.0/0');
  });
});
