/** `tools`, `resources` and `prompts`: the layer options, the principal, `--json`. */
import type { DefineCommand } from '../command-table.js';
import type { ListFlags } from '../commands/listing.js';
import { addLayerAndLogOptions, addPrincipalOptions } from '../layer-flags.js';
import { collect } from '../option-values.js';

export const define: DefineCommand = (cmd, io, setExit) => {
  const kind = cmd.name() as 'tools' | 'resources' | 'prompts';
  cmd.option('--json', 'print the exact wire definitions');
  if (kind === 'tools') cmd.option('--category <CAT>', 'only this category; repeatable', collect);
  addPrincipalOptions(addLayerAndLogOptions(cmd)).action(async (flags: ListFlags) => {
    const { listCommand } = await import('../commands/listing.js');
    setExit(await listCommand(kind, flags, io));
  });
};
