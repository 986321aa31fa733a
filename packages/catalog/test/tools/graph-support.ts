import { join } from 'node:path';
import type { Layer } from '@cloudg/core';
import { createCatalogLayer, defaultRegistry, type Workspace } from '../../src/index.js';
import { registerGraphTools } from '../../src/tools/graph/index.js';
import { workspaceAt } from '../support/estate.js';
import { call, estate } from './support.js';

/**
 * A catalog layer over the sample estate, as `sampleLayer` builds it, whose registry is sure to
 * hold the graph tools (the default registry has them once they are wired in).
 */
export async function graphLayer(): Promise<{ layer: Layer<Workspace>; ws: Workspace }> {
  const registry = defaultRegistry();
  if (!registry.tools.has('neighbors')) registerGraphTools(registry);
  const ws = workspaceAt(estate);
  const layer = createCatalogLayer({ workspace: ws, registry });
  await call(layer, 'load_dataset', { path: join(estate, 'inventory'), name: 'sample' });
  return { layer, ws };
}
