/**
 * The README's live collection example (region `live`): an embedder's engine, registered so the
 * layer serves map_inventory, collect_assets and run_pipeline. Type-checked with the package;
 * test/live/examples.test.ts runs it.
 */

// #region live
import { type CloudgEngine, createCatalogLayer, defaultRegistry, loadPath, Workspace } from '@cloudg/catalog';
import type { Layer } from '@cloudg/core';
// #endregion live

export async function liveQuickStart(inventoryDir: string, outputDir: string): Promise<Layer<Workspace>> {
  // #region live
  // A stand-in engine that "collects" a saved inventory; a real one calls the cloud APIs.
  const engine: CloudgEngine = {
    async mapInventory({ hooks, signal }) {
      hooks.phase('inventory_mapping');
      const { data } = await loadPath(inventoryDir, { signal });
      hooks.error('inventory_mapping', 'aws:rds: AccessDenied'); // a denied service; collection goes on
      return data;
    },
    async collect({ hooks, signal }) {
      hooks.phase('collection');
      return (await loadPath(inventoryDir, { signal })).data;
    },
  };
  const layer = createCatalogLayer({
    workspace: new Workspace({ allowedRoots: [inventoryDir, outputDir], outputDir }),
    registry: defaultRegistry({ live: { engine } }),
  });
  // The preflight checks the server's credentials first; preflight=false skips it.
  const result = await layer.callTool('map_inventory', {
    providers: ['aws'],
    name: 'live-aws',
    preflight: false,
  });
  // result.structured: { dataset: 'live-aws', active: true, summary: { total_assets: 44, ... }, errors: [...] }
  // #endregion live
  void result;
  return layer;
}
