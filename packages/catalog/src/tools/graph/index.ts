import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerAttackPaths } from './attack-paths.js';
import { registerBlastRadius } from './blast-radius.js';
import { registerCentralityTop } from './centrality-top.js';
import { registerCrossAccountEdges } from './cross-account-edges.js';
import { registerDependencyTree } from './dependency-tree.js';
import { registerDependents, registerDependsOn } from './dependency-walk.js';
import { registerFindPaths } from './find-paths.js';
import { registerGetEdges } from './get-edges.js';
import { registerGraphStats } from './graph-stats.js';
import { registerInternetExposure } from './internet-exposure.js';
import { registerLargestBlastRadius } from './largest-blast-radius.js';
import { registerLateralMovementPaths } from './lateral-movement-paths.js';
import { registerNeighbors } from './neighbors.js';
import { registerSecurityCoverage } from './security-coverage.js';
import { registerSharedDependencies } from './shared-dependencies.js';
import { registerSubgraphExport } from './subgraph-export.js';

/**
 * Register the graph tools, in catalog order: neighbors, get_edges, find_paths, attack_paths,
 * lateral_movement_paths, internet_exposure, blast_radius, depends_on, dependents,
 * dependency_tree, shared_dependencies, largest_blast_radius, cross_account_edges, centrality_top,
 * subgraph_export, security_coverage, graph_stats: the 17 tools of the reference's Graph
 * category, all on the engine in src/graph.
 */
export function registerGraphTools(registry: Registry<Workspace>): void {
  registerNeighbors(registry);
  registerGetEdges(registry);
  registerFindPaths(registry);
  registerAttackPaths(registry);
  registerLateralMovementPaths(registry);
  registerInternetExposure(registry);
  registerBlastRadius(registry);
  registerDependsOn(registry);
  registerDependents(registry);
  registerDependencyTree(registry);
  registerSharedDependencies(registry);
  registerLargestBlastRadius(registry);
  registerCrossAccountEdges(registry);
  registerCentralityTop(registry);
  registerSubgraphExport(registry);
  registerSecurityCoverage(registry);
  registerGraphStats(registry);
}
