/**
 * The README's tour of the workspace API (region `workspace`). Type-checked with the package;
 * test/examples.test.ts runs it against the sample estate.
 */
import type { CloudgConfig, InventoryResult } from '@cloudg/catalog';
// #region workspace
import { Workspace } from '@cloudg/catalog';
// #endregion workspace

export interface TourInputs {
  config: CloudgConfig;
  allowedRoots: string[];
  outputDir: string;
  maxFileBytes: number;
  providersConfigured: string[];
  protectedPaths: string[];
  result: InventoryResult;
}

export async function workspaceTour(inputs: TourInputs): Promise<Workspace> {
  const { config, allowedRoots, outputDir, maxFileBytes, providersConfigured, protectedPaths, result } =
    inputs;
  // #region workspace
  const ws = new Workspace({
    config, // the cloudg config; defaultCloudgConfig() when none is given
    allowedRoots,
    outputDir,
    maxDatasets: 16,
    maxFileBytes,
    providersConfigured,
    protectedPaths,
  });
  await ws.load('inventory', {
    name: 'sample',
    kind: 'auto',
    activate: true,
    normalise: true,
    replace: false,
  });
  const active = ws.get(); // the active dataset; NoDatasetError when nothing is loaded
  ws.get('sample'); // NoDatasetError (data: value, datasets) for an unknown name
  ws.snapshot('', 'baseline'); // deep copy, kind 'snapshot', not activated
  ws.diff('baseline', 'sample', 50); // assets, edges and findings added, removed or changed
  ws.select('baseline');
  ws.remove('baseline');
  ws.status(); // also ws.listDatasets(), ws.names(), ws.activeName, ws.size, ws.has(name)
  ws.checkName('sample-2', { replace: false }); // and ws.uniqueName(base)
  ws.checkPath('inventory'); // the real path inside an allowed root, else AccessDeniedError
  ws.outputPath('reports/json');
  ws.protect('/var/log/cloudg/mcp.jsonl'); // no load may read it
  const stop = ws.onChange((kind, uri) => console.log(kind, uri)); // stop() unsubscribes
  ws.mutated(active); // after changing a dataset in place: indexes rebuilt, listeners told
  ws.addInventory(result, 'live-1'); // also ws.add(dataset, { activate, replace })
  // #endregion workspace
  stop();
  return ws;
}
