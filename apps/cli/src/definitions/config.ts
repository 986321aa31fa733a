/** `config`'s options: none of them needs more than commander and the client list to define. */
import { Option } from 'commander';
import { CLIENTS } from '../client-config.js';
import type { DefineCommand } from '../command-table.js';
import type { ConfigFlags } from '../commands/config.js';
import { addLogLevelOption } from '../log-level.js';
import { collect } from '../option-values.js';

export const define: DefineCommand = (config, io, setExit) => {
  config
    .addOption(new Option('--client <NAME>', 'client').choices(CLIENTS).default('claude-desktop'))
    .option('--name <NAME>', 'server key in the config', 'cloudg')
    .addOption(
      new Option('--transport <NAME>', 'stdio launches the server; http connects to --url')
        .choices(['stdio', 'http'])
        .default('stdio'),
    )
    .option('--url <URL>', 'server URL for http', 'http://127.0.0.1:8765/mcp')
    .option('--command <CMD>', "launch command; 'auto' finds cloudg-mcp", 'auto')
    .option(
      '-c, --config <PATH>',
      'cloudg config.yaml for the launched server: providers, credentials, report directory, rulesets, state (checked, made absolute)',
    )
    .option('--policy <NAME_OR_FILE>', 'policy for the launched server')
    .option('--dataset <[NAME=]PATH>', 'preload a dataset; repeatable', collect, [])
    .option('--sample', 'launch the server with the bundled sample estate (--sample)')
    .option('--read-only', 'launch the server with --read-only')
    .option('--token-env <VAR>', 'for http: send Authorization: Bearer ${VAR}');
  addLogLevelOption(config).action(async (flags: ConfigFlags) => {
    const { configCommand } = await import('../commands/config.js');
    setExit(await configCommand(flags, io));
  });
};
