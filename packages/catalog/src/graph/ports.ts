import type { NetworkEdge } from '../model/edge.js';

/**
 * Which ports a network edge opens, read the way the reachability findings read them: comma
 * lists, `lo-hi` ranges and the Azure `*` are understood; an empty port list on a TCP, UDP or
 * all-protocol filter rule means every port; ICMP opens none.
 */

export interface PortSet {
  /** Every port (0-65535). */
  all: boolean;
  /** Inclusive ranges; single ports are `[p, p]`. */
  ranges: [number, number][];
}

const FILTER_RULES = new Set(['SECURITY_GROUP_RULE', 'NACL_RULE']);
const ALL_PROTOCOLS = new Set(['TCP', 'UDP', 'ALL', '-1', '*', 'ANY']);
const MAX_PORT = 65535;

/** Ranges of a `port_range` string such as `80,443`, `8000-8100` or `*`; null when it says nothing. */
export function parsePortRange(text: string | null | undefined): PortSet | null {
  if (text === null || text === undefined) return null;
  const tokens = String(text)
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  if (tokens.length === 0) return null;
  const set: PortSet = { all: false, ranges: [] };
  for (const token of tokens) {
    if (token === '*') {
      set.all = true;
      continue;
    }
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(token);
    if (!m) continue;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (lo <= 0 && hi >= MAX_PORT) set.all = true;
    else set.ranges.push([Math.min(lo, hi), Math.max(lo, hi)]);
  }
  return set;
}

function protocols(edge: NetworkEdge): string[] {
  return (edge.protocol ?? '')
    .split(',')
    .map((p) => p.trim().toUpperCase())
    .filter((p) => p.length > 0);
}

/** The ports an edge opens, from `ports` and `port_range` together. */
export function edgePorts(edge: NetworkEdge): PortSet {
  const set: PortSet = { all: false, ranges: edge.ports.map((p): [number, number] => [p, p]) };
  const fromRange = parsePortRange(edge.port_range);
  if (fromRange) {
    set.all = fromRange.all;
    set.ranges.push(...fromRange.ranges);
  }
  if (!set.all && set.ranges.length === 0 && FILTER_RULES.has(edge.edge_type)) {
    const protos = protocols(edge);
    if (protos.some((p) => ALL_PROTOCOLS.has(p))) set.all = true;
  }
  return set;
}

export function opensPort(set: PortSet, port: number): boolean {
  return set.all || set.ranges.some(([lo, hi]) => port >= lo && port <= hi);
}

/** Whether an edge opens `port`. */
export function edgeOpensPort(edge: NetworkEdge, port: number): boolean {
  return opensPort(edgePorts(edge), port);
}
