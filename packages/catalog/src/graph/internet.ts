import type { Dataset } from '../dataset/dataset.js';
import type { NetworkEdge } from '../model/edge.js';

/**
 * The internet as the graph tools see it. Collectors write it as placeholder endpoints
 * (`0.0.0.0/0`, `::/0`) and as CIDRs or Azure service tags on ingress rules.
 */

/** Id of the virtual start node of internet paths, shown as `internet`. */
export const INTERNET_NODE = '__internet__';

/** What a caller may write for the internet in a graph reference. */
const INTERNET_ALIASES = new Set(['internet', 'public', '0.0.0.0/0', '::/0']);

/** Sources and CIDRs that stand for the whole internet (the Azure tags in any letter case). */
const INTERNET_SOURCES = new Set(['0.0.0.0/0', '::/0', 'internet', 'any', '*']);

/** Placeholder nodes that are the internet itself. */
const INTERNET_NODES = ['0.0.0.0/0', '::/0'];
const INTERNET_NODE_SET: ReadonlySet<string> = new Set(INTERNET_NODES);

export function isInternetAlias(ref: string): boolean {
  return INTERNET_ALIASES.has(ref.trim().toLowerCase());
}

export function isInternetSource(value: string | null | undefined): boolean {
  return value !== null && value !== undefined && INTERNET_SOURCES.has(value.trim().toLowerCase());
}

export function isEgress(edge: NetworkEdge): boolean {
  return edge.direction.toLowerCase() === 'egress';
}

/** An ingress edge whose source or CIDR stands for the internet. */
export function isInternetIngress(edge: NetworkEdge): boolean {
  return !isEgress(edge) && (isInternetSource(edge.source_id) || isInternetSource(edge.cidr));
}

/**
 * Internet entry points, as the reachability analysis finds them: the `0.0.0.0/0` and `::/0`
 * nodes, then the source of every ingress edge whose CIDR stands for the internet. The reference
 * only looks at `cidr`; an Azure rule whose *source* is the `Internet` tag with no CIDR is an
 * entry point too here, so an NSG-only estate has one. `0.0.0.0/0` comes first when present.
 */
export function internetEntryPoints(dataset: Dataset): readonly string[] {
  return dataset.derived('graph.internet_entry_points', (ds) => {
    const idx = ds.indexes;
    // One pass over the edges (not the per-endpoint edge index, which nothing else on the way to
    // a first top_risks needs): which internet placeholders occur at all, and the entry sources.
    const present = new Set<string>();
    const sources: string[] = [];
    for (const e of ds.edges) {
      if (INTERNET_NODE_SET.has(e.source_id)) present.add(e.source_id);
      if (INTERNET_NODE_SET.has(e.target_id)) present.add(e.target_id);
      if (isEgress(e)) continue;
      if (isInternetSource(e.cidr)) sources.push(e.source_id);
      else if (isInternetSource(e.source_id) && !idx.assetById(e.source_id)) sources.push(e.source_id);
    }
    const out = new Set<string>(INTERNET_NODES.filter((node) => present.has(node)));
    for (const source of sources) out.add(source);
    return [...out];
  });
}

/** The error text when a dataset has no entry point. */
export const NO_INTERNET_NODE =
  'This dataset has no internet node (no internet-sourced ingress rules or INTERNET_EXPOSED edges). Use internet_exposure to see assets flagged as exposed.';
