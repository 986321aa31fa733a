/**
 * The exit status and the `Error:` line for a command that threw. Option problems (status 2) are
 * told apart from run-time failures (status 1) by the error's class; the classes of the server,
 * catalog and policy packages load only when a command has failed with something else than a
 * `CliError`, and by then the command has usually loaded them already.
 */
import { CliError } from './cli-error.js';
import type { CliIo } from './io.js';

export async function reportFailure(error: unknown, io: CliIo): Promise<number> {
  if (error instanceof CliError) {
    io.stderr(`Error: ${error.message}\n`);
    return error.exitCode;
  }
  const [{ SuppressionStoreError }, { LayerConfigError }, { PolicyError }, server] = await Promise.all([
    import('@cloudg/catalog'),
    import('@cloudg/core'),
    import('@cloudg/policy'),
    import('@cloudg/server'),
  ]);
  // Options that cannot work (a bad prefix, flavor or dataset) are refused like malformed ones.
  if (error instanceof server.DatasetSpecError) {
    const what = error.value === undefined ? '' : ` ${error.value}`;
    io.stderr(`Error: Invalid value for --dataset${what}: ${error.reason ?? error.message}\n`);
    return 2;
  }
  // A damaged suppressions file in the state directory is a start-up setting that cannot work,
  // refused like a bad --config (status 2), not a run-time failure; the message names the file.
  if (error instanceof SuppressionStoreError && error.code === 'state_unreadable') {
    io.stderr(`Error: ${error.message}\n`);
    return 2;
  }
  if (error instanceof LayerConfigError || error instanceof server.ServeOptionsError) {
    io.stderr(`Error: ${error.message}\n`);
    return 2;
  }
  if (
    error instanceof PolicyError ||
    (error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'number')
  ) {
    io.stderr(`Error: ${(error as Error).message}\n`);
    return 1;
  }
  io.stderr(`Error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
  return 1;
}
