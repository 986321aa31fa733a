import type { CloudAsset } from './asset.js';
import type { NetworkEdge } from './edge.js';

/** D3 force-layout data (`inventory-graph.json`, the `graph` block of a findings report). */
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
  relationship: string;
  description: string;
  direction: string;
  protocol: string;
  port_range: string;
  cidr: string;
}

export interface D3Graph {
  nodes: D3Node[];
  links: D3Link[];
}

/** Build the D3 form; endpoints that are not assets become `EXTERNAL` nodes. */
export function toD3Graph(assets: readonly CloudAsset[], edges: readonly NetworkEdge[]): D3Graph {
  const nodes: D3Node[] = [];
  const seen = new Set<string>();
  for (const a of assets) {
    if (seen.has(a.id)) continue;
    seen.add(a.id);
    nodes.push({
      id: a.id,
      name: a.name,
      type: a.asset_type,
      provider: a.provider,
      region: a.region,
      arn: a.arn ?? '',
      account_id: a.account_id ?? '',
      is_internet_exposed: a.is_internet_exposed,
      is_external: false,
    });
  }
  const links: D3Link[] = [];
  for (const e of edges) {
    for (const endpoint of [e.source_id, e.target_id]) {
      if (seen.has(endpoint)) continue;
      seen.add(endpoint);
      nodes.push({
        id: endpoint,
        name: endpoint,
        type: 'EXTERNAL',
        provider: 'EXTERNAL',
        region: '',
        arn: '',
        account_id: '',
        is_internet_exposed: false,
        is_external: true,
      });
    }
    links.push({
      source: e.source_id,
      target: e.target_id,
      type: e.edge_type,
      relationship: e.relationship ?? '',
      description: e.description ?? '',
      direction: e.direction,
      protocol: e.protocol ?? '',
      port_range: e.port_range ?? '',
      cidr: e.cidr ?? '',
    });
  }
  return { nodes, links };
}
