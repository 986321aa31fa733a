import { join } from 'node:path';
import type { Layer, Registry } from '@cloudg/core';
import { createCatalogLayer, defaultRegistry, type Workspace } from '../../src/index.js';
import { registerGraphResources } from '../../src/resources/graph.js';
import { registerCentralityTop } from '../../src/tools/graph/centrality-top.js';
import { registerCrossAccountEdges } from '../../src/tools/graph/cross-account-edges.js';
import { registerDependencyTree } from '../../src/tools/graph/dependency-tree.js';
import { registerDependents, registerDependsOn } from '../../src/tools/graph/dependency-walk.js';
import { registerLargestBlastRadius } from '../../src/tools/graph/largest-blast-radius.js';
import { registerSecurityCoverage } from '../../src/tools/graph/security-coverage.js';
import { registerSharedDependencies } from '../../src/tools/graph/shared-dependencies.js';
import { registerSubgraphExport } from '../../src/tools/graph/subgraph-export.js';
import { workspaceAt } from '../support/estate.js';
import { call, estate } from './support.js';

/**
 * Tools of the second half of the Graph category, registered here until the default registry
 * holds them (then these registrations are skipped).
 */
const LANE_TOOLS: [string, (registry: Registry<Workspace>) => void][] = [
  ['depends_on', registerDependsOn],
  ['dependents', registerDependents],
  ['dependency_tree', registerDependencyTree],
  ['shared_dependencies', registerSharedDependencies],
  ['largest_blast_radius', registerLargestBlastRadius],
  ['cross_account_edges', registerCrossAccountEdges],
  ['centrality_top', registerCentralityTop],
  ['subgraph_export', registerSubgraphExport],
  ['security_coverage', registerSecurityCoverage],
];

/** A catalog layer over the sample estate (`sample` loaded) whose registry holds those tools. */
export async function laneLayer(): Promise<{ layer: Layer<Workspace>; ws: Workspace }> {
  const registry = defaultRegistry();
  for (const [name, register] of LANE_TOOLS) if (!registry.tools.has(name)) register(registry);
  if (!registry.resources.has('cloudg://graph/d3')) registerGraphResources(registry);
  const ws = workspaceAt(estate);
  const layer = createCatalogLayer({ workspace: ws, registry });
  await call(layer, 'load_dataset', { path: join(estate, 'inventory'), name: 'sample' });
  return { layer, ws };
}
