import type { Dataset } from '../dataset/dataset.js';
import { AbortCheck, flowGraph, internetEntryPoints } from '../graph/index.js';

/**
 * Node ids the reachability analysis reaches from the internet: breadth-first from every entry
 * point (`internetEntryPoints`) along the flow graph's traffic hops. Identity pivots are not
 * followed (an IAM grant does not make a database reachable), and the entry points themselves
 * count only when a hop reaches them. Built once per dataset version; `signal` stops the build.
 */
export function internetReachable(dataset: Dataset, signal?: AbortSignal): ReadonlySet<string> {
  return dataset.derived('findings:internet_reachable', (ds) => {
    const flow = flowGraph(ds, signal);
    const abort = new AbortCheck(signal);
    const reached = new Set<string>();
    let frontier = internetEntryPoints(ds).filter((node) => flow.hasNode(node));
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const node of frontier) {
        flow.forEachOutEdge(node, (_key, hop, _source, target) => {
          abort.tick();
          if (hop.identity || reached.has(target)) return;
          reached.add(target);
          next.push(target);
        });
      }
      frontier = next;
    }
    return reached;
  });
}
