/** `call TOOL`: the layer options, the principal, `--args` and `--raw`. */
import type { DefineCommand } from '../command-table.js';
import type { CallFlags } from '../commands/call.js';
import { addLayerAndLogOptions, addPrincipalOptions } from '../layer-flags.js';

export const define: DefineCommand = (call, io, setExit) => {
  call
    .argument('<TOOL>', 'tool name')
    .option('--args <JSON|@FILE|->', 'arguments as a JSON object, @file or - for stdin')
    .option('--raw', 'print the whole CallToolResult');
  addPrincipalOptions(addLayerAndLogOptions(call)).action(async (tool: string, flags: CallFlags) => {
    const { callCommand } = await import('../commands/call.js');
    setExit(await callCommand(tool, flags, io));
  });
};
