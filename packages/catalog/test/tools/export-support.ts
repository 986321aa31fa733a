import { join } from 'node:path';
import type { Layer } from '@cloudg/core';
import { createCatalogLayer, defaultRegistry, type Workspace } from '../../src/index.js';
import { registerExportTools } from '../../src/tools/export/index.js';
import { copyEstate, workspaceAt } from '../support/estate.js';
import { call } from './support.js';

/**
 * A catalog layer (allow-all policy) over a private copy of the sample estate with `sample`
 * loaded, so exports write under `<copy>/out` and never into the package's fixtures.
 */
export async function exportLayer(): Promise<{
  layer: Layer<Workspace>;
  ws: Workspace;
  dir: string;
  out: string;
  cleanup: () => Promise<void>;
}> {
  const copy = await copyEstate();
  const ws = workspaceAt(copy.dir);
  const registry = defaultRegistry();
  // Until the export tools are in the default registry.
  if (!registry.tools.has('terraform_preview')) registerExportTools(registry);
  const layer = createCatalogLayer({ workspace: ws, registry });
  await call(layer, 'load_dataset', { path: join(copy.dir, 'inventory'), name: 'sample' });
  return { layer, ws, dir: copy.dir, out: join(copy.dir, 'out'), cleanup: copy.cleanup };
}
