// @cloudg/cli: the cloudg-mcp command, usable from code too.

export { CliError } from './cli-error.js';
export {
  CLIENT_HINTS,
  CLIENTS,
  type ClientConfigOptions,
  type ClientName,
  clientConfig,
  launchCommand,
} from './client-config.js';
export { type CliIo, processIo } from './io.js';
export { run } from './program.js';
export { renderTable } from './table.js';
