/** The error the CLI reports as `Error: <message>` with an exit status. */
import { McpLayerError } from '@cloudg/core';

/**
 * A failure the CLI reports as `Error: <message>` with an exit status: code `cli_error`,
 * `data.exit_code`.
 */
export class CliError extends McpLayerError {
  override readonly code = 'cli_error';
  declare readonly data: { exit_code: number };

  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message, { data: { exit_code: exitCode } });
  }
}
