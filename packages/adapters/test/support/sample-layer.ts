/** The bundled sample estate behind a catalog layer, as `cloudg-mcp serve --sample` builds it. */
import { join } from 'node:path';
import { createCatalogLayer, sampleEstateDir, Workspace } from '@cloudg/catalog';
import type { Layer } from '@cloudg/core';
import { Policy } from '@cloudg/policy';

export async function sampleLayer(
  options: { policy?: string; prefix?: string } = {},
): Promise<Layer<Workspace>> {
  const workspace = new Workspace();
  await workspace.preload(join(sampleEstateDir(), 'inventory', 'inventory-map.json'), { name: 'sample' });
  return createCatalogLayer({
    workspace,
    policy: Policy.load(options.policy ?? 'standard'),
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
  });
}
