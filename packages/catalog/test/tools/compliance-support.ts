import { join } from 'node:path';
import { type Layer, Registry } from '@cloudg/core';
import { createCatalogLayer, defaultRegistry, type Workspace } from '../../src/index.js';
import { registerComplianceTools } from '../../src/tools/compliance/index.js';
import { workspaceAt } from '../support/estate.js';
import { call, estate } from './support.js';

/**
 * The sample layer with the compliance tools registered (merged over the default registry, so
 * it holds whether or not the default registry already has them).
 */
export async function complianceLayer(
  options: { workspace?: Workspace; extra?: (registry: Registry<Workspace>) => void } = {},
): Promise<{ layer: Layer<Workspace>; ws: Workspace }> {
  const registry = defaultRegistry();
  const compliance = new Registry<Workspace>();
  registerComplianceTools(compliance);
  options.extra?.(compliance);
  registry.merge(compliance, { replace: true });
  const ws = options.workspace ?? workspaceAt(estate);
  const layer = createCatalogLayer({ workspace: ws, registry });
  await call(layer, 'load_dataset', { path: join(estate, 'inventory'), name: 'sample' });
  return { layer, ws };
}
