import type { GraphEdge, RelationshipGraph } from '../../graph/index.js';
import type { CloudAsset } from '../../model/asset.js';
import { edgesByNode } from './edges-by-node.js';
import { toGraphml } from './graphml.js';

/**
 * The relationship graph as a self-contained document: D3 `{nodes, links}`, Cytoscape
 * `{elements: {nodes, edges}}` or GraphML text (graphml.ts), with the fields and order of the
 * reference's GraphBuilder exports (INVENTORY_REFERENCE.md 15 and 16). Nodes come in graph order
 * (assets, then placeholders); links in the order of edges-by-node.ts.
 */

export const GRAPH_FORMATS = ['d3', 'cytoscape', 'graphml'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

/** MIME type of each format's rendering. */
export const GRAPH_FORMAT_MIME: Record<GraphFormat, string> = {
  d3: 'application/json',
  cytoscape: 'application/json',
  graphml: 'application/graphml+xml',
};

export interface D3Node {
  id: string;
  name: string;
  type: string;
  provider: string;
  region: string;
  arn: string;
  account_id: string;
  is_internet_exposed: boolean;
  is_external: boolean;
}

export interface D3Link {
  source: string;
  target: string;
  type: string;
  port_range: string;
  protocol: string;
  cidr: string;
  direction: string;
  relationship: string;
  description: string;
}

function d3Node(id: string, asset: CloudAsset | null): D3Node {
  if (asset === null) {
    return {
      id,
      name: id,
      type: 'EXTERNAL',
      provider: 'EXTERNAL',
      region: '',
      arn: '',
      account_id: '',
      is_internet_exposed: false,
      is_external: true,
    };
  }
  return {
    id,
    name: asset.name,
    type: asset.asset_type,
    provider: asset.provider,
    region: asset.region,
    arn: asset.arn ?? '',
    account_id: asset.account_id ?? '',
    is_internet_exposed: asset.is_internet_exposed,
    is_external: false,
  };
}

function d3Link(source: string, target: string, e: GraphEdge): D3Link {
  return {
    source,
    target,
    type: e.edge_type,
    port_range: e.port_range ?? '',
    protocol: e.protocol ?? '',
    cidr: e.cidr ?? '',
    direction: e.direction ?? '',
    relationship: e.relationship ?? '',
    description: e.description ?? '',
  };
}

export function toD3(graph: RelationshipGraph): { nodes: D3Node[]; links: D3Link[] } {
  return {
    nodes: graph.mapNodes((id, attributes) => d3Node(id, attributes.asset)),
    links: edgesByNode(graph).map(([s, t, e]) => d3Link(s, t, e)),
  };
}

/** Cytoscape's smaller attribute set: no ARN, account or CIDR. */
export function toCytoscape(graph: RelationshipGraph) {
  return {
    elements: {
      nodes: graph.mapNodes((id, { asset }) => ({
        data: {
          id,
          label: asset?.name ?? id,
          type: asset?.asset_type ?? 'EXTERNAL',
          provider: asset?.provider ?? 'EXTERNAL',
          region: asset?.region ?? '',
          internet_exposed: asset?.is_internet_exposed ?? false,
        },
      })),
      edges: edgesByNode(graph).map(([source, target, e]) => ({
        data: {
          source,
          target,
          type: e.edge_type,
          port_range: e.port_range ?? '',
          protocol: e.protocol ?? '',
        },
      })),
    },
  };
}

/** The graph in one format: an object for d3 and cytoscape, XML text for graphml. */
export function renderGraph(graph: RelationshipGraph, format: GraphFormat): unknown {
  if (format === 'graphml') return toGraphml(graph);
  if (format === 'cytoscape') return toCytoscape(graph);
  return toD3(graph);
}
