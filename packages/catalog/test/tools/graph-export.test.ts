import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { call, callError, readJson, sampleLayer } from './support.js';

/** subgraph_export and the cloudg://graph resources reproduce the reference on the sample estate. */

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await sampleLayer());
});

type Obj = Record<string, unknown>;
const EMPTY_LINK = {
  port_range: '',
  protocol: '',
  cidr: '',
  direction: 'ingress',
  relationship: '',
  description: '',
};

describe('subgraph_export', () => {
  it('exports web-1 and its five neighbours as D3, as documented', async () => {
    const s = await call(layer, 'subgraph_export', { seeds: ['web-1'], depth: 1, format: 'd3' });
    expect([s.format, s.nodes, s.edges, s.truncated]).toEqual(['d3', 6, 5, false]);
    const graph = s.graph as { nodes: Obj[]; links: Obj[] };
    expect(graph.nodes.map((n) => n.id)).toEqual([
      'web-1',
      'subnet-private',
      'sg-app',
      'tg-web',
      'app-role',
      'inspector',
    ]);
    expect(graph.nodes[1]).toEqual({
      id: 'subnet-private',
      name: 'prod-private-a',
      type: 'SUBNET',
      provider: 'AWS',
      region: 'us-east-1',
      arn: 'arn:aws:ec2:us-east-1:111111111111:subnet/subnet-0priv',
      account_id: '111111111111',
      is_internet_exposed: false,
      is_external: false,
    });
    expect(graph.links.slice(0, 2)).toEqual([
      { source: 'web-1', target: 'sg-app', type: 'ATTACHED_TO', ...EMPTY_LINK },
      { source: 'web-1', target: 'app-role', type: 'ASSUMES_ROLE', ...EMPTY_LINK },
    ]);
  });

  it('exports the bastion and its role as Cytoscape over ASSUMES_ROLE only, as documented', async () => {
    const s = await call(layer, 'subgraph_export', {
      seeds: ['bastion'],
      depth: 1,
      format: 'cytoscape',
      edge_types: ['ASSUMES_ROLE'],
    });
    expect([s.nodes, s.edges, s.truncated]).toEqual([2, 1, false]);
    expect(s.graph).toEqual({
      elements: {
        nodes: [
          {
            data: {
              id: 'bastion',
              label: 'bastion',
              type: 'EC2',
              provider: 'AWS',
              region: 'us-east-1',
              internet_exposed: true,
            },
          },
          {
            data: {
              id: 'admin-role',
              label: 'bastion-admin',
              type: 'IAM_ROLE',
              provider: 'AWS',
              region: 'global',
              internet_exposed: false,
            },
          },
        ],
        edges: [
          {
            data: {
              source: 'bastion',
              target: 'admin-role',
              type: 'ASSUMES_ROLE',
              port_range: '',
              protocol: '',
            },
          },
        ],
      },
    });
  });

  it('exports one node as a GraphML string, as documented', async () => {
    const s = await call(layer, 'subgraph_export', { seeds: ['web-1'], depth: 0, format: 'graphml' });
    expect([s.nodes, s.edges, s.truncated]).toEqual([1, 0, false]);
    const xml = s.graph as string;
    expect(
      xml.startsWith(
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/x',
      ),
    ).toBe(true);
    expect(xml).toContain('<node id="web-1">');
    expect(xml).toContain('<data key="d6">{"env": "prod", "owner": "web-team"}</data>');
    expect(xml).toContain('<key id="d7" for="node" attr.name="is_internet_exposed" attr.type="boolean" />');
  });

  it('starts at the internet, caps nodes at max_nodes and says so', async () => {
    const s = await call(layer, 'subgraph_export', { seeds: ['internet'], depth: 1 });
    const nodes = (s.graph as { nodes: Obj[] }).nodes;
    expect(nodes[0]).toMatchObject({ id: 'sg-web', is_external: false });
    expect(nodes.find((n) => n.id === '0.0.0.0/0')).toMatchObject({ type: 'EXTERNAL', is_external: true });
    const capped = await call(layer, 'subgraph_export', { seeds: ['web-1'], depth: 2, max_nodes: 3 });
    expect([capped.nodes, capped.truncated]).toEqual([3, true]);
  });

  it('refuses an empty seeds list and an unknown seed, as documented', async () => {
    expect(await callError(layer, 'subgraph_export', { seeds: [] })).toEqual({
      text: 'Invalid arguments: seeds: List should have at least 1 item',
      code: -32602,
      data: [{ loc: 'seeds', msg: 'List should have at least 1 item', type: 'too_short' }],
    });
    const e = await callError(layer, 'subgraph_export', { seeds: ['web-3'] });
    expect(e.text).toMatch(/^No asset matches the reference in this dataset\./);
  });
});

describe('cloudg://graph resources', () => {
  it('reads the whole relationship graph as D3', async () => {
    const g = (await readJson(layer, 'cloudg://graph/d3')) as { nodes: Obj[]; links: Obj[] };
    // Every node and edge of graph_stats (45 nodes with the 0.0.0.0/0 placeholder, 56 edges).
    // The reference's abridged print ("... 42 more", "... 53 more" after two of each) is one
    // short of its own graph_stats on both counts; the full graph is what it describes.
    expect([g.nodes.length, g.links.length]).toEqual([45, 56]);
    expect(g.nodes.slice(0, 2).map((n) => [n.id, n.name, n.type])).toEqual([
      ['org', 'sample-org', 'ORGANIZATION'],
      ['ou-workloads', 'Workloads', 'ORG_UNIT'],
    ]);
    expect(g.links.slice(0, 2)).toEqual([
      { source: 'org', target: 'ou-workloads', type: 'CONTAINS', ...EMPTY_LINK },
      { source: 'ou-workloads', target: 'acct-prod', type: 'CONTAINS', ...EMPTY_LINK },
    ]);
  });

  it('reads GraphML with its own MIME type and keys numbered as networkx numbers them', async () => {
    const [content] = await layer.readResource('cloudg://graph/graphml');
    expect(content?.mimeType).toBe('application/graphml+xml');
    const text = content && 'text' in content ? content.text : '';
    expect(text.split('\n').slice(1, 4)).toEqual([
      '  <key id="d15" for="edge" attr.name="relationship" attr.type="string" />',
      '  <key id="d14" for="edge" attr.name="description" attr.type="string" />',
      '  <key id="d13" for="edge" attr.name="direction" attr.type="string" />',
    ]);
    const cy = await readJson(layer, 'cloudg://graph/cytoscape');
    expect(((cy.elements as Obj).nodes as Obj[]).length).toBe(45);
  });

  it('fails on an unknown format with the documented message', async () => {
    await expect(layer.readResource('cloudg://graph/png')).rejects.toThrow(
      'Unknown graph format; use d3, cytoscape, graphml',
    );
  });

  it('completes the format', async () => {
    const ref = { type: 'ref/resource', uri: 'cloudg://graph/{format}' } as const;
    expect(await layer.complete(ref, { name: 'format', value: 'c' })).toEqual({
      values: ['cytoscape'],
      total: 1,
      hasMore: false,
    });
    expect((await layer.complete(ref, { name: 'format', value: '' })).values).toEqual([
      'd3',
      'cytoscape',
      'graphml',
    ]);
  });
});
