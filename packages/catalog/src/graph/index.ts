/**
 * The graph engine: three views of a dataset's edges, each built lazily on graphology and cached
 * on the dataset (`dataset.derived`), so a `touch()` or any workspace mutation drops them.
 *
 *   relationshipGraph(ds)   edges as collected, one per node pair, placeholders for non-assets
 *                           (`0.0.0.0/0`...), parallel rule edges merged; node attr `asset`
 *                           (null for a placeholder), edge attrs `GraphEdge`.
 *   flowGraph(ds)           traffic hops in the direction traffic moves (reversed SG hops carry
 *                           `reversed: true` and show as `SG_ADMITS`) plus identity pivots
 *                           (`identity: true`); see flow-graph.ts for the hop table.
 *   dependencyGraph(ds)     "dependent -> dependency" arrows between assets; walk it with
 *                           `walkDependencies(graph, id, 'up' | 'down', maxDepth, signal)`.
 *   identityGraph(ds)       ASSUMES_ROLE, IAM_TRUST and GRANTS_ACCESS edges only.
 *
 * Path searches run on a compact integer adjacency of a view (compact.ts; graphology's per-node
 * callbacks were measured too slow for them on the 50,000-asset estate): `compactFlow(ds)`,
 * `compactTraffic(ds)` (no identity pivots; both built straight from the edges, compact-edges.ts,
 * the same arrays as converting the flow graph) and `compactRelationship(ds, undirected)` are
 * cached beside the graphs; `withSource(g, id, starts)` adds a virtual start (the internet) without
 * touching the cache; `kShortestPaths` (Yen, shortest first, depth-capped, guided by distances
 * to the target) and `compactBfs` + `compactPathTo` (one shortest path to every node) search
 * them. Small walks can stay on graphology through a `Successors` function: `forward(graph,
 * label)` with `bfsTree` + `pathTo`. Every builder and search takes an optional AbortSignal and
 * checks it as it goes; pass the tool's `ctx.signal`.
 *
 * References: `resolveGraphRef(ds, ref)` accepts the internet aliases, asset references (the
 * inventory tools' matcher, same suggestions on a miss) and placeholder node ids;
 * `internetEntryPoints(ds)` lists where internet paths start; `internetReach(ds)` is the one
 * walk of what the internet reaches over traffic hops (exposure, top_risks, reachability findings). Ports: `edgePorts`, `edgeOpensPort`.
 *
 * graphology-metrics (degree, betweenness) and graphology-components run directly on the
 * graphology graphs.
 */
export { AbortCheck } from './abort.js';
export { forward } from './adjacency.js';
export { type BetweennessOptions, sampledBetweenness, sampleNodes } from './betweenness.js';
export {
  type CompactGraph,
  type CompactTree,
  compactBfs,
  compactGraph,
  compactPathTo,
  kShortestPaths,
  withSource,
} from './compact.js';
export { compactFlow, compactRelationship, compactTraffic } from './compact-views.js';
export {
  type DependencyArrow,
  type DependencyGraph,
  type DependencyGraphOptions,
  type DependencyLink,
  dependencyArrowOf,
  dependencyGraph,
  walkDependencies,
} from './dependency-graph.js';
export {
  type FlowGraph,
  type FlowHop,
  flowGraph,
  hopLabel,
  IDENTITY_EDGE_TYPES,
  SG_ADMITS,
} from './flow-graph.js';
export { type IdentityGraph, identityGraph } from './identity-graph.js';
export { incidentEdges } from './incident.js';
export {
  INTERNET_NODE,
  internetEntryPoints,
  isInternetAlias,
  isInternetIngress,
  isInternetSource,
  NO_INTERNET_NODE,
} from './internet.js';
export { type InternetReach, internetReach } from './internet-reach.js';
export {
  bfsTree,
  type FoundPath,
  pathTo,
  type SearchTree,
  type Successors,
} from './paths.js';
export { edgeOpensPort, edgePorts, opensPort, type PortSet, parsePortRange } from './ports.js';
export { type GraphRef, resolveGraphRef } from './references.js';
export {
  buildRelationshipGraph,
  type GraphEdge,
  type GraphNode,
  type RelationshipGraph,
  relationshipGraph,
} from './relationship-graph.js';
