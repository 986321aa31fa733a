/** README: the framework-free export (region `export`), run by test/examples.test.ts. */
// #region export
import { exportDefinitions } from '@cloudg/adapters';
import { type Layer, Principal } from '@cloudg/core';
// #endregion export

export async function exportForGateway<TApp>(layer: Layer<TApp>): Promise<unknown> {
  // #region export
  const defs = exportDefinitions(layer, new Principal({ id: 'gateway', roles: ['analyst'] }));
  defs.tools.map((tool) => tool.name); // the wire definitions this principal sees
  // Any method, through the layer; `principal` in the options serves another caller.
  const result = await defs.dispatch('tools/call', { name: 'find_assets', arguments: { provider: 'GCP' } });
  // Or a tool as a function: always a result (isError on failure), bound to the export's principal.
  await defs.toolFunctions.find_assets?.({ provider: 'GCP' });
  // #endregion export
  return result;
}
