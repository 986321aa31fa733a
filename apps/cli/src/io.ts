/**
 * Where the CLI reads and writes, so tests can run it in-process. Imports nothing of the
 * workspace: every command, `--help` included, starts here.
 */

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
   * in @cloudg/server); resolves with its exit status. Absent in-process; `serve` uses it only
   * when `wantsStdioIsolation` agrees (not turned off, not already relaunched, not Windows).
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
    // Loaded when `serve` asks for it: the server package is most of the CLI's start-up time.
    relaunchIsolated: async () => (await import('@cloudg/server')).relaunchIsolated(),
  };
}
