import { DirectedGraph } from 'graphology';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import { isHierarchyEdge, type NetworkEdge } from '../model/edge.js';
import { dependencyDirection } from '../tools/meta/vocabulary/index.js';
import { AbortCheck } from './abort.js';

/**
 * The dependency graph: each edge turned into a "dependent needs dependency" arrow. Forward edge
 * types (REFERENCES, ATTACHED_TO, ROUTE, ASSUMES_ROLE, GRANTS_ACCESS, ...) make the source depend
 * on the target; reverse types (CONTAINS, INVOKES, PROTECTS, MONITORS, MANAGES, GOVERNS) the
 * target on the source; rule and exposure edges make no dependency. Only edges between two
 * assets count, and containment by an organization, OU or account is left out: it says where
 * something lives, not what breaks with it.
 */

export interface DependencyArrow {
  /** `edge_type` of the edge the arrow comes from (the first one on the pair). */
  via: string;
  relationship: string | null;
}

export type DependencyGraph = DirectedGraph<{ asset: CloudAsset }, DependencyArrow>;

/** One asset reached by a dependency walk. */
export interface DependencyLink {
  asset_id: string;
  via_edge: string;
  relationship: string | null;
  /** Hops from the start, from 1. */
  depth: number;
  /** The asset one hop closer to the start. */
  parent_id: string;
}

const HIERARCHY_CONTAINERS = new Set(['ORGANIZATION', 'ORG_UNIT', 'CLOUD_ACCOUNT']);

/**
 * The arrow one edge makes, as `[dependent, dependency]`, or null when it makes none (rule and
 * exposure edges, unknown types, containment by the hierarchy unless `includeHierarchy`).
 */
export function dependencyArrowOf(
  edge: NetworkEdge,
  source: CloudAsset,
  target: CloudAsset,
  includeHierarchy: boolean,
): [dependent: string, dependency: string] | null {
  const direction = dependencyDirection(edge.edge_type);
  if (direction === 'forward') return [source.id, target.id];
  if (direction !== 'reverse') return null;
  if (
    !includeHierarchy &&
    edge.edge_type === 'CONTAINS' &&
    (HIERARCHY_CONTAINERS.has(source.asset_type) || isHierarchyEdge(edge))
  )
    return null;
  return [target.id, source.id];
}

export interface DependencyGraphOptions {
  /** Keep containment by an organization, OU or account (`dependency_tree`'s include_hierarchy). */
  includeHierarchy?: boolean;
}

export function buildDependencyGraph(
  dataset: Dataset,
  signal?: AbortSignal,
  options: DependencyGraphOptions = {},
): DependencyGraph {
  const abort = new AbortCheck(signal);
  const idx = dataset.indexes;
  const graph: DependencyGraph = new DirectedGraph({ allowSelfLoops: false });
  for (const asset of dataset.assets) if (!graph.hasNode(asset.id)) graph.addNode(asset.id, { asset });
  for (const edge of dataset.edges) {
    abort.tick();
    const source = idx.assetById(edge.source_id);
    const target = idx.assetById(edge.target_id);
    if (!source || !target) continue;
    const arrow = dependencyArrowOf(edge, source, target, options.includeHierarchy === true);
    if (arrow === null || arrow[0] === arrow[1] || graph.hasEdge(arrow[0], arrow[1])) continue;
    graph.addEdge(arrow[0], arrow[1], { via: edge.edge_type, relationship: edge.relationship });
  }
  return graph;
}

/** The dataset's dependency graph, built on first use and dropped when the dataset changes. */
export function dependencyGraph(
  dataset: Dataset,
  signal?: AbortSignal,
  options: DependencyGraphOptions = {},
): DependencyGraph {
  if (options.includeHierarchy)
    return dataset.derived('dependency_graph_hierarchy', (ds) => buildDependencyGraph(ds, signal, options));
  return dataset.derived('dependency_graph', (ds) => buildDependencyGraph(ds, signal));
}

/**
 * Breadth-first walk of the dependency graph: `up` follows arrows (what the asset needs),
 * `down` walks them backwards (what needs the asset). Each asset appears once, at the depth and
 * under the parent where the walk first reached it.
 */
export function walkDependencies(
  graph: DependencyGraph,
  start: string,
  direction: 'up' | 'down',
  maxDepth: number,
  signal?: AbortSignal,
): DependencyLink[] {
  const abort = new AbortCheck(signal);
  abort.check();
  if (!graph.hasNode(start)) return [];
  const seen = new Set<string>([start]);
  const out: DependencyLink[] = [];
  let frontier = [start];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const node of frontier) {
      const visit = (neighbor: string, arrow: DependencyArrow) => {
        abort.tick();
        if (seen.has(neighbor)) return;
        seen.add(neighbor);
        next.push(neighbor);
        out.push({
          asset_id: neighbor,
          via_edge: arrow.via,
          relationship: arrow.relationship,
          depth,
          parent_id: node,
        });
      };
      if (direction === 'up') graph.forEachOutEdge(node, (_k, a, _s, t) => visit(t, a));
      else graph.forEachInEdge(node, (_k, a, s) => visit(s, a));
    }
    frontier = next;
  }
  return out;
}
