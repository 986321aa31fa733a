import { DirectedGraph } from 'graphology';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { NetworkEdge } from '../model/edge.js';
import { AbortCheck } from './abort.js';

/**
 * The relationship graph: edges as collected, "source verb target", one edge per ordered pair
 * of nodes. Edges whose endpoint is not an asset (a CIDR, a service tag, an unresolved id) get a
 * placeholder node. Parallel `SECURITY_GROUP_RULE`, `NACL_RULE` and `INTERNET_EXPOSED` edges with
 * the same CIDR and direction merge into one edge whose `port_range` and `protocol` are comma
 * lists; any other edge landing on an occupied pair replaces the earlier one's attributes.
 */

export interface GraphNode {
  /** The asset, or null for a placeholder (`0.0.0.0/0`, an external principal...). */
  asset: CloudAsset | null;
}

export interface GraphEdge {
  edge_type: string;
  relationship: string | null;
  port_range: string | null;
  protocol: string | null;
  cidr: string | null;
  direction: string;
  description: string | null;
  /** Ids of the raw edges this one stands for (several after a merge). */
  edge_ids: string[];
}

export type RelationshipGraph = DirectedGraph<GraphNode, GraphEdge>;

const MERGED_TYPES = new Set(['SECURITY_GROUP_RULE', 'NACL_RULE', 'INTERNET_EXPOSED']);
const FILTER_RULES = new Set(['SECURITY_GROUP_RULE', 'NACL_RULE']);
const EVERY_PORT_PROTOCOLS = new Set(['TCP', 'UDP', 'ALL', '-1', '*']);

function splitList(text: string | null): string[] {
  return (text ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

/** The port tokens one rule contributes to a merged `port_range`. */
function portTokens(
  edge: Pick<GraphEdge, 'port_range' | 'protocol' | 'edge_type'>,
  ports: number[],
): string[] {
  const fromRange = splitList(edge.port_range);
  if (fromRange.length > 0) return fromRange;
  if (ports.length > 0) return ports.map(String);
  // GCP writes filter rules with no ports for "every port"; ICMP rules open none.
  const protos = splitList(edge.protocol).map((p) => p.toUpperCase());
  if (FILTER_RULES.has(edge.edge_type) && protos.some((p) => EVERY_PORT_PROTOCOLS.has(p))) return ['0-65535'];
  return [];
}

function union(a: string[], b: string[]): string[] {
  const out = [...a];
  for (const t of b) if (!out.includes(t)) out.push(t);
  return out;
}

function attributesOf(edge: NetworkEdge): GraphEdge {
  return {
    edge_type: edge.edge_type,
    relationship: edge.relationship,
    port_range: edge.port_range,
    protocol: edge.protocol,
    cidr: edge.cidr,
    direction: edge.direction,
    description: edge.description,
    edge_ids: [edge.id],
  };
}

function merge(existing: GraphEdge, existingPorts: number[], edge: NetworkEdge): GraphEdge {
  const ports = union(portTokens(existing, existingPorts), portTokens(edge, edge.ports));
  const protocols = union(
    splitList(existing.protocol).map((p) => p.toUpperCase()),
    splitList(edge.protocol).map((p) => p.toUpperCase()),
  );
  const descriptions = [existing.description, edge.description].filter(
    (d): d is string => typeof d === 'string' && d.length > 0,
  );
  return {
    ...existing,
    port_range: ports.length ? ports.join(',') : null,
    protocol: protocols.length ? protocols.join(',') : null,
    description: descriptions.length ? descriptions.join('; ') : null,
    edge_ids: [...existing.edge_ids, edge.id],
  };
}

/**
 * Whether `edge`, landing on a pair that already holds `existing`, merges into it (and leaves its
 * type, CIDR, direction and relationship as they are) rather than replacing it. Also read by the
 * compact views built straight from the edges (compact-edges.ts).
 */
export function mergeable(
  existing: Pick<GraphEdge, 'edge_type' | 'cidr' | 'direction'>,
  edge: Pick<NetworkEdge, 'edge_type' | 'cidr' | 'direction'>,
): boolean {
  return (
    MERGED_TYPES.has(existing.edge_type) &&
    MERGED_TYPES.has(edge.edge_type) &&
    (existing.cidr ?? null) === (edge.cidr ?? null) &&
    existing.direction === edge.direction
  );
}

/** Build the relationship graph of a list of assets and edges. */
export function buildRelationshipGraph(
  assets: readonly CloudAsset[],
  edges: readonly NetworkEdge[],
  signal?: AbortSignal,
): RelationshipGraph {
  const abort = new AbortCheck(signal);
  const graph: RelationshipGraph = new DirectedGraph<GraphNode, GraphEdge>({ allowSelfLoops: true });
  for (const asset of assets) {
    abort.tick();
    if (!graph.hasNode(asset.id)) graph.addNode(asset.id, { asset });
  }
  // The explicit port lists of the first rule on each pair, needed if a later rule merges into it.
  const firstPorts = new Map<string, number[]>();
  for (const edge of edges) {
    abort.tick();
    if (!graph.hasNode(edge.source_id)) graph.addNode(edge.source_id, { asset: null });
    if (!graph.hasNode(edge.target_id)) graph.addNode(edge.target_id, { asset: null });
    const key = graph.edge(edge.source_id, edge.target_id);
    if (key === undefined) {
      const added = graph.addEdge(edge.source_id, edge.target_id, attributesOf(edge));
      if (edge.ports.length) firstPorts.set(added, edge.ports);
      continue;
    }
    const existing = graph.getEdgeAttributes(key);
    if (mergeable(existing, edge)) {
      graph.replaceEdgeAttributes(key, merge(existing, firstPorts.get(key) ?? [], edge));
      firstPorts.delete(key);
    } else {
      graph.replaceEdgeAttributes(key, attributesOf(edge));
      if (edge.ports.length) firstPorts.set(key, edge.ports);
      else firstPorts.delete(key);
    }
  }
  return graph;
}

/** The dataset's relationship graph, built on first use and dropped when the dataset changes. */
export function relationshipGraph(dataset: Dataset, signal?: AbortSignal): RelationshipGraph {
  return dataset.derived('graph', (ds) => buildRelationshipGraph(ds.assets, ds.edges, signal));
}
