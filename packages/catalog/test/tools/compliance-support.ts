import { join } from 'node:path';
import type { Layer } from '@cloudg/core';
import { createCatalogLayer, type Workspace } from '../../src/index.js';
import { workspaceAt } from '../support/estate.js';
import { call, estate } from './support.js';

/**
 * A catalog layer (the default registry, allow-all policy) over a workspace rooted at the sample
 * estate with `sample` loaded, as the reference's examples ran; `workspace` replaces the default
 * one (to pass a config with `rulesets.rules_dir`, say).
 */
export async function complianceLayer(
  options: { workspace?: Workspace } = {},
): Promise<{ layer: Layer<Workspace>; ws: Workspace }> {
  const ws = options.workspace ?? workspaceAt(estate);
  const layer = createCatalogLayer({ workspace: ws });
  await call(layer, 'load_dataset', { path: join(estate, 'inventory'), name: 'sample' });
  return { layer, ws };
}
