import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import type { CliIo } from '../src/io.js';
import { run } from '../src/program.js';

export const SAMPLE_MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
export const PROD = `prod=${SAMPLE_MAP}`;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in-process with captured output. */
export async function cli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; cwd?: string; tty?: boolean } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
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
  };
  const code = await run(args, io);
  return { code, stdout, stderr };
}
