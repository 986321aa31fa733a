import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sampleEstateDir } from '@cloudg/catalog';
import type { CliIo } from '../src/io.js';
import { run } from '../src/program.js';

// The CLI imports a command's modules when the command runs. Loaded here, with the test file, the
// workspace is imported before the first test starts, as it was when the CLI loaded everything
// up front, so a busy machine does not spend the first test's timeout on it.
await Promise.all([
  import('../src/commands/call.js'),
  import('../src/commands/config.js'),
  import('../src/commands/listing.js'),
  import('../src/commands/serve.js'),
  import('../src/failure.js'),
]);

export const SAMPLE_MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
export const PROD = `prod=${SAMPLE_MAP}`;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** What the command's logger wrote (stderr in a real process). */
  logs: string;
}

/** Run the CLI in-process with captured output. `tty` makes stderr (and so the log) a terminal. */
export async function cli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; cwd?: string; tty?: boolean } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  let logs = '';
  const logStream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        logs += String(chunk);
        done();
      },
    }),
    { isTTY: options.tty ?? false },
  );
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readStdin: async () => options.stdin ?? '',
    env: { PATH: '', ...(options.env ?? {}) },
    cwd: options.cwd ?? process.cwd(),
    stderrIsTTY: options.tty ?? false,
    logStream,
  };
  const code = await run(args, io);
  return { code, stdout, stderr, logs };
}
