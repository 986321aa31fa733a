import type { Dataset } from '../../dataset/dataset.js';

/** Placeholder nodes and CIDR values that stand for the whole internet. */
const INTERNET = new Set(['0.0.0.0/0', '::/0', 'internet', 'any', '*']);

/** Edge types traffic flows along; identity and structure edges carry no packets. */
const FLOW_EDGES = new Set([
  'SECURITY_GROUP_RULE',
  'NACL_RULE',
  'INTERNET_EXPOSED',
  'LOAD_BALANCER_TARGET',
  'ROUTE',
  'PEERING',
]);

/**
 * Node ids reachable from the internet over network-flow edges: the internet placeholders and
 * the sources of ingress rules open to any address, then breadth-first along flow edges.
 */
export function internetReachable(dataset: Dataset): ReadonlySet<string> {
  return dataset.derived('prompts.internet_reachable', (ds) => {
    const start = new Set<string>();
    for (const e of ds.edges) {
      if (INTERNET.has(e.source_id.toLowerCase())) start.add(e.source_id);
      else if (e.direction === 'ingress' && e.cidr && INTERNET.has(e.cidr.toLowerCase()))
        start.add(e.source_id);
    }
    const reached = new Set<string>();
    let frontier = [...start];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const node of frontier) {
        for (const e of ds.indexes.outgoing(node)) {
          if (!FLOW_EDGES.has(e.edge_type) || reached.has(e.target_id) || start.has(e.target_id)) continue;
          reached.add(e.target_id);
          next.push(e.target_id);
        }
      }
      frontier = next;
    }
    return reached;
  });
}
