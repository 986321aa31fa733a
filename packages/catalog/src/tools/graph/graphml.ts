import type { GraphEdge, RelationshipGraph } from '../../graph/index.js';
import type { CloudAsset } from '../../model/asset.js';
import { edgesByNode } from './edges-by-node.js';

/**
 * GraphML as networkx's `write_graphml_xml` lays out GraphBuilder's graph (INVENTORY_REFERENCE.md
 * 16): node attributes as GraphBuilder stores them, every edge attribute a string, keys numbered
 * in the order attributes are first met.
 */

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
