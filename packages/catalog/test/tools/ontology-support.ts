import { join } from 'node:path';
import type { Layer } from '@cloudg/core';
import { createCatalogLayer, defaultRegistry, type Workspace } from '../../src/index.js';
import { registerOntologyResources } from '../../src/resources/ontology.js';
import { registerOntologyTools } from '../../src/tools/ontology/index.js';
import { workspaceAt } from '../support/estate.js';
import { call, estate } from './support.js';

/**
 * A catalog layer over a private copy-free workspace rooted at the sample estate (`sample`
 * loaded, output under `<estate>/out` unless `outputDir` is given) whose registry holds the
 * ontology tools and resources, registered here while the default registry does not yet.
 */
export async function ontologyLayer(
  options: { outputDir?: string } = {},
): Promise<{ layer: Layer<Workspace>; ws: Workspace }> {
  const registry = defaultRegistry();
  if (!registry.tools.has('ontology_stats')) registerOntologyTools(registry);
  if (!registry.resources.has('cloudg://ontology/turtle')) registerOntologyResources(registry);
  const ws = workspaceAt(estate, options.outputDir ? { outputDir: options.outputDir } : {});
  const layer = createCatalogLayer({ workspace: ws, registry });
  await call(layer, 'load_dataset', { path: join(estate, 'inventory'), name: 'sample' });
  return { layer, ws };
}
