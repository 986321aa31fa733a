import type { GraphEdge, RelationshipGraph } from '../../graph/index.js';
import type { CloudAsset } from '../../model/asset.js';

/**
 * The relationship graph as a self-contained document: D3 `{nodes, links}`, Cytoscape
 * `{elements: {nodes, edges}}` or GraphML text, with the fields and order of the reference's
 * GraphBuilder exports (INVENTORY_REFERENCE.md 15 and 16). Nodes come in graph order (assets,
 * then placeholders); links node by node, each node's outgoing edges in insertion order, which
 * is the order networkx lists a DiGraph's edges in.
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

/** Every edge of the graph, node by node in graph order, as [source, target, attributes]. */
function edgesByNode(graph: RelationshipGraph): [string, string, GraphEdge][] {
  const out: [string, string, GraphEdge][] = [];
  graph.forEachNode((node) => {
    graph.forEachOutEdge(node, (_key, attributes, source, target) => {
      out.push([source, target, attributes]);
    });
  });
  return out;
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

// ---- GraphML, as networkx's write_graphml_xml lays it out ----

type Value = string | boolean;

function escapeXml(text: string, attribute: boolean): string {
  let out = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (attribute) out = out.replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
  return out;
}

/** Python's json.dumps of a string map: ", " and ": " separators, non-ASCII as \u escapes. */
function pythonJson(tags: Record<string, string>): string {
  const body = Object.entries(tags)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(', ');
  return `{${body}}`.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Node attributes as GraphBuilder stores them: strings, tags as JSON, two booleans. */
function graphmlNodeData(id: string, asset: CloudAsset | null): [string, Value][] {
  if (asset === null)
    return [
      ['name', id],
      ['asset_type', 'EXTERNAL'],
      ['provider', 'EXTERNAL'],
      ['is_external', true],
    ];
  return [
    ['name', asset.name],
    ['asset_type', asset.asset_type],
    ['provider', asset.provider],
    ['region', asset.region],
    ['arn', asset.arn ?? ''],
    ['account_id', asset.account_id ?? ''],
    ['tags', pythonJson(asset.tags)],
    ['is_internet_exposed', asset.is_internet_exposed],
  ];
}

function graphmlEdgeData(e: GraphEdge): [string, Value][] {
  return [
    ['edge_type', e.edge_type],
    ['port_range', e.port_range ?? ''],
    ['protocol', e.protocol ?? ''],
    ['cidr', e.cidr ?? ''],
    ['direction', e.direction ?? ''],
    ['description', e.description ?? ''],
    ['relationship', e.relationship ?? ''],
  ];
}

export function toGraphml(graph: RelationshipGraph): string {
  // Keys are numbered in the order attributes are first met (nodes, then edges), and each new
  // key goes in front of the earlier ones, as networkx writes them.
  const keys = new Map<string, string>();
  const keyLines: string[] = [];
  const keyOf = (scope: 'node' | 'edge', name: string, value: Value): string => {
    const id = `${scope} ${name}`;
    let key = keys.get(id);
    if (key === undefined) {
      key = `d${keys.size}`;
      keys.set(id, key);
      const type = typeof value === 'boolean' ? 'boolean' : 'string';
      keyLines.unshift(
        `  <key id="${key}" for="${scope}" attr.name="${escapeXml(name, true)}" attr.type="${type}" />`,
      );
    }
    return key;
  };
  const data = (scope: 'node' | 'edge', pairs: [string, Value][]) =>
    pairs.map(([name, value]) => {
      const key = keyOf(scope, name, value);
      const text = typeof value === 'boolean' ? String(value) : value;
      return text === ''
        ? `      <data key="${key}" />`
        : `      <data key="${key}">${escapeXml(text, false)}</data>`;
    });
  const body: string[] = [];
  graph.forEachNode((id, { asset }) => {
    body.push(
      `    <node id="${escapeXml(id, true)}">`,
      ...data('node', graphmlNodeData(id, asset)),
      '    </node>',
    );
  });
  for (const [source, target, e] of edgesByNode(graph)) {
    body.push(
      `    <edge source="${escapeXml(source, true)}" target="${escapeXml(target, true)}">`,
      ...data('edge', graphmlEdgeData(e)),
      '    </edge>',
    );
  }
  return [
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    ...keyLines,
    ...(body.length > 0
      ? ['  <graph edgedefault="directed">', ...body, '  </graph>']
      : ['  <graph edgedefault="directed" />']),
    '</graphml>',
    '',
  ].join('\n');
}

/** The graph in one format: an object for d3 and cytoscape, XML text for graphml. */
export function renderGraph(graph: RelationshipGraph, format: GraphFormat): unknown {
  if (format === 'graphml') return toGraphml(graph);
  if (format === 'cytoscape') return toCytoscape(graph);
  return toD3(graph);
}
