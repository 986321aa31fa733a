/** `read URI`: the layer options and the principal. */
import type { DefineCommand } from '../command-table.js';
import type { LayerFlags } from '../layer-flags.js';
import { addLayerAndLogOptions, addPrincipalOptions } from '../layer-flags.js';

export const define: DefineCommand = (read, io, setExit) => {
  read.argument('<URI>', 'resource URI');
  addPrincipalOptions(addLayerAndLogOptions(read)).action(async (uri: string, flags: LayerFlags) => {
    const { readCommand } = await import('../commands/call.js');
    setExit(await readCommand(uri, flags, io));
  });
};
