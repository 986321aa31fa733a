/** Where the CLI reads and writes, so tests can run it in-process. */
import { McpLayerError } from '@cloudg/core';
import { relaunchIsolated, wantsStdioIsolation } from '@cloudg/server';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether stderr is a terminal (progress is shown only then). */
  stderrIsTTY: boolean;
  /**
   * Where log lines go; its `isTTY` picks human-readable or JSON lines. Default: descriptor 2,
   * written synchronously, human-readable when stderr is a terminal.
   */
  logStream?: NodeJS.WritableStream & { isTTY?: boolean };
  /**
   * Run this command again as a stdio server whose descriptor 1 is stderr (see `relaunchIsolated`
   * in @cloudg/server); resolves with its exit status. Absent in-process and when turned off.
   */
  relaunchIsolated?: () => Promise<number>;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    ...(wantsStdioIsolation(process.env) ? { relaunchIsolated: () => relaunchIsolated() } : {}),
  };
}

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
