import { DirectedGraph } from 'graphology';
import type { Dataset } from '../dataset/dataset.js';
import { AbortCheck } from './abort.js';
import type { GraphEdge, GraphNode, RelationshipGraph } from './relationship-graph.js';
import { relationshipGraph } from './relationship-graph.js';

/**
 * The flow graph: where traffic can travel, in the direction it travels, plus the identity edges
 * an attacker who reaches a workload can pivot along. Built from the relationship graph (so one
 * hop per pair, after rule merging), with these hops:
 *
 * - `INTERNET_EXPOSED`, `LOAD_BALANCER_TARGET`, `ROUTE`, `PEERING`: source to target;
 * - `SECURITY_GROUP_RULE`, `NACL_RULE`: source to target unless the rule is egress;
 * - `ATTACHED_TO` into a security group, NSG or NACL (or `PROTECTED_BY_SG` / `_NACL`): backwards,
 *   from the group to what is attached to it (labelled `SG_ADMITS` in paths);
 * - `ATTACHED_TO` out of a network interface or elastic IP: source to target;
 * - `CONTAINS` out of a VPC, VNet or subnet: parent to child;
 * - `ASSUMES_ROLE`, `IAM_TRUST`, `GRANTS_ACCESS`: source to target, marked `identity`.
 *
 * Egress rules, `INVOKES` and the other typed edges carry no traffic and are left out.
 */

export interface FlowHop {
  /** The relationship edge's type (`ATTACHED_TO` for a reversed hop). */
  edge_type: string;
  /** Walked against the collected direction (a group admitting traffic to its members). */
  reversed: boolean;
  /** An identity pivot rather than a network hop. */
  identity: boolean;
}

export type FlowGraph = DirectedGraph<GraphNode, FlowHop>;

/** The label paths show for a reversed `ATTACHED_TO` hop. */
export const SG_ADMITS = 'SG_ADMITS';

const FORWARD_TRAFFIC = new Set(['INTERNET_EXPOSED', 'LOAD_BALANCER_TARGET', 'ROUTE', 'PEERING']);
const RULES = new Set(['SECURITY_GROUP_RULE', 'NACL_RULE']);
const GROUPS = new Set(['SECURITY_GROUP', 'NSG', 'NACL']);
const GROUP_RELATIONSHIPS = new Set(['PROTECTED_BY_SG', 'PROTECTED_BY_NACL']);
const ATTACHMENT_SOURCES = new Set(['NETWORK_INTERFACE', 'ELASTIC_IP']);
const NETWORK_CONTAINERS = new Set(['VPC', 'VNET', 'SUBNET']);
/** Identity edges the flow graph adds as pivots. */
export const IDENTITY_EDGE_TYPES: ReadonlySet<string> = new Set([
  'ASSUMES_ROLE',
  'IAM_TRUST',
  'GRANTS_ACCESS',
]);

function typeOf(graph: RelationshipGraph, node: string): string | null {
  return graph.getNodeAttribute(node, 'asset')?.asset_type ?? null;
}

/** How one relationship edge carries traffic: along it, against it, or as an identity pivot. */
export interface HopRule {
  /** The hop runs from the edge's target to its source (a group admitting its members). */
  reversed: boolean;
  identity: boolean;
}

const ALONG: HopRule = Object.freeze({ reversed: false, identity: false });
const AGAINST: HopRule = Object.freeze({ reversed: true, identity: false });
const PIVOT: HopRule = Object.freeze({ reversed: false, identity: true });

/**
 * The hop table above for one relationship edge, given the asset types of its ends (null for a
 * placeholder), or null when the edge makes no hop. Shared by the graphology flow graph and the
 * compact views built straight from the edges (compact-edges.ts), so both read one table.
 */
export function flowHopRule(
  edge: Pick<GraphEdge, 'edge_type' | 'direction' | 'relationship'>,
  sourceType: () => string | null,
  targetType: () => string | null,
): HopRule | null {
  const type = edge.edge_type;
  if (FORWARD_TRAFFIC.has(type)) return ALONG;
  if (RULES.has(type)) return edge.direction.toLowerCase() === 'egress' ? null : ALONG;
  if (type === 'ATTACHED_TO') {
    const target = targetType();
    if ((target !== null && GROUPS.has(target)) || GROUP_RELATIONSHIPS.has(edge.relationship ?? ''))
      return AGAINST;
    const source = sourceType();
    return source !== null && ATTACHMENT_SOURCES.has(source) ? ALONG : null;
  }
  if (type === 'CONTAINS') {
    const source = sourceType();
    return source !== null && NETWORK_CONTAINERS.has(source) ? ALONG : null;
  }
  if (IDENTITY_EDGE_TYPES.has(type)) return PIVOT;
  return null;
}

/** The flow hop one relationship edge makes, as [from, to, hop], or null. */
function hopOf(
  graph: RelationshipGraph,
  source: string,
  target: string,
  edge: GraphEdge,
): [string, string, FlowHop] | null {
  const rule = flowHopRule(
    edge,
    () => typeOf(graph, source),
    () => typeOf(graph, target),
  );
  if (rule === null) return null;
  const hop: FlowHop = { edge_type: edge.edge_type, reversed: rule.reversed, identity: rule.identity };
  return rule.reversed ? [target, source, hop] : [source, target, hop];
}

/** Build the flow graph over a relationship graph. */
export function buildFlowGraph(graph: RelationshipGraph, signal?: AbortSignal): FlowGraph {
  const abort = new AbortCheck(signal);
  const flow: FlowGraph = new DirectedGraph<GraphNode, FlowHop>({ allowSelfLoops: false });
  graph.forEachNode((node, attributes) => {
    abort.tick();
    flow.addNode(node, attributes);
  });
  graph.forEachEdge((_key, attributes, source, target) => {
    abort.tick();
    const hop = hopOf(graph, source, target, attributes);
    if (hop === null || hop[0] === hop[1]) return;
    const [from, to, data] = hop;
    const existing = flow.edge(from, to);
    if (existing === undefined) flow.addEdge(from, to, data);
    // Two relationship edges can make the same hop (a rule and a reversed attachment); a traffic
    // hop wins over an identity pivot so the traffic-only walk of the exposure analysis keeps it.
    else if (flow.getEdgeAttribute(existing, 'identity') && !data.identity)
      flow.replaceEdgeAttributes(existing, data);
  });
  return flow;
}

/** The dataset's flow graph, built on first use and dropped when the dataset changes. */
export function flowGraph(dataset: Dataset, signal?: AbortSignal): FlowGraph {
  return dataset.derived('flow_graph', (ds) => buildFlowGraph(relationshipGraph(ds, signal), signal));
}

/** The label of a hop in a path: `SG_ADMITS` for a reversed attachment, else the edge type. */
export function hopLabel(hop: FlowHop): string {
  return hop.reversed ? SG_ADMITS : hop.edge_type;
}
