import type { Dataset } from '../dataset/dataset.js';
import { AbortCheck, flowGraph, hopLabel, internetEntryPoints } from '../graph/index.js';

/** What the internet reaches: every reached node with the hop it was first reached by. */
export interface InternetReach {
  /** Reached node -> the node before it and the hop's label (`SG_ADMITS` for a reversed attachment). */
  parent: ReadonlyMap<string, { from: string; label: string }>;
  /** The entry points the walk started from, in `internetEntryPoints` order. */
  entryPoints: readonly string[];
}

/**
 * The reachability analysis: breadth-first from every entry point (`internetEntryPoints`) along
 * the flow graph's traffic hops. Identity pivots are not followed (an IAM grant does not make a
 * database reachable), and an entry point counts as reached only when a hop leads to it. Built
 * once per dataset version; `signal` stops the build.
 */
export function internetReach(dataset: Dataset, signal?: AbortSignal): InternetReach {
  return dataset.derived('findings:internet_reach', (ds) => {
    const flow = flowGraph(ds, signal);
    const abort = new AbortCheck(signal);
    const parent = new Map<string, { from: string; label: string }>();
    const entryPoints = internetEntryPoints(ds).filter((node) => flow.hasNode(node));
    let frontier = [...entryPoints];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const node of frontier) {
        flow.forEachOutEdge(node, (_key, hop, _source, target) => {
          abort.tick();
          if (hop.identity || parent.has(target)) return;
          parent.set(target, { from: node, label: hopLabel(hop) });
          next.push(target);
        });
      }
      frontier = next;
    }
    return { parent, entryPoints };
  });
}

/** The nodes from an entry point to `node` as the walk first reached it, or null when it did not. */
export function reachPath(reach: InternetReach, node: string): string[] | null {
  if (!reach.parent.has(node)) return null;
  const nodes = [node];
  const seen = new Set(nodes);
  for (let step = reach.parent.get(node); step !== undefined; step = reach.parent.get(step.from)) {
    // An entry point reached from another one ends the walk back at the first entry.
    if (seen.has(step.from)) break;
    seen.add(step.from);
    nodes.push(step.from);
  }
  return nodes.reverse();
}
