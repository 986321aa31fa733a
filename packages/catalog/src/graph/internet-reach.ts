import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import { type CompactTree, compactBfs, withSource } from './compact.js';
import { compactTraffic } from './compact-views.js';
import { INTERNET_NODE, internetEntryPoints } from './internet.js';

/**
 * What the internet reaches over traffic hops (identity pivots left out: an IAM grant does not
 * make a database reachable): the one reachability walk behind `internet_exposure`'s
 * `graph_reachable`, `top_risks`' `internet_reachable` and the reachability findings.
 *
 * The walk is breadth-first from the virtual internet node linked to every entry point, as the
 * path tools search. An entry point that is itself an asset (the source of an ingress edge with
 * an internet CIDR) therefore counts as reached: the internet-sourced rule is its hop, just as
 * the sample estate's security groups are reached through theirs. The reference leaves this case
 * open; the findings and graph tools used to answer it differently.
 */
export interface InternetReach {
  /** Whether the walk reaches `node` (an asset or a placeholder such as `0.0.0.0/0`). */
  reaches(node: string): boolean;
  /** Nodes from the entry point to `node` as the walk first reached it, or null when it did not. */
  pathTo(node: string): string[] | null;
  /** The assets reached, sorted by id. */
  assets(): readonly CloudAsset[];
}

/** The walk, built once per dataset version; `signal` stops the build. */
export function internetReach(dataset: Dataset, signal?: AbortSignal): InternetReach {
  return dataset.derived('graph.internet_reach', (ds) => {
    const entry = internetEntryPoints(ds);
    const graph = withSource(compactTraffic(ds, signal), INTERNET_NODE, entry);
    const tree = compactBfs(graph, INTERNET_NODE, Number.POSITIVE_INFINITY, signal);
    return reachOf(ds, tree);
  });
}

function reachOf(dataset: Dataset, tree: CompactTree): InternetReach {
  const { graph, depth, parent } = tree;
  // The virtual node is depth 0; everything at depth 1 or more was reached.
  const indexOf = (node: string): number | undefined => {
    const i = node === INTERNET_NODE ? undefined : graph.indexOf(node);
    return i !== undefined && (depth[i] as number) > 0 ? i : undefined;
  };
  let assets: CloudAsset[] | undefined;
  return {
    reaches: (node) => indexOf(node) !== undefined,
    pathTo(node) {
      const i = indexOf(node);
      if (i === undefined) return null;
      const nodes: string[] = [];
      for (let cur = i; (depth[cur] as number) > 0; cur = parent[cur] as number)
        nodes.push(graph.ids[cur] as string);
      return nodes.reverse();
    },
    assets() {
      if (!assets) {
        assets = [];
        for (const i of tree.order) {
          const asset =
            (depth[i] as number) > 0 ? dataset.indexes.assetById(graph.ids[i] as string) : undefined;
          if (asset) assets.push(asset);
        }
        assets.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      }
      return assets;
    },
  };
}
