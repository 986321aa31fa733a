/**
 * The README's opening snippet (region `app-value`): the workspace as the layer's application
 * value, its change events forwarded. Type-checked; the paths are an operator's, so the tests run
 * the same wiring through `createCatalogLayer` (tools.examples.ts) instead.
 */
// #region app-value
import { sampleEstateDir, Workspace } from '@cloudg/catalog';
import { Layer } from '@cloudg/core';
// #endregion app-value

export async function appValue(): Promise<Layer<Workspace>> {
  // #region app-value
  const ws = new Workspace({ allowedRoots: ['/srv/cloudg/reports'], outputDir: '/srv/cloudg/out' });
  await ws.preload(`${sampleEstateDir()}/inventory`, { name: 'sample' }); // operator's choice: no root check
  const layer = new Layer({ app: ws /* , registry, policy... */ });
  ws.onChange((kind, uri) => layer.notifyChange(kind, uri));
  // #endregion app-value
  return layer;
}
