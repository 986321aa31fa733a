import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/** The executable `name` on `PATH`, or null when it is not installed. */
export async function findExecutable(name: string, path: string | undefined): Promise<string | null> {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return null;
}

/** Most stderr kept for an error message. */
const STDERR_TAIL = 400;

export interface ProcessOutcome {
  code: number | null;
  stderr: string;
  /** Stopped because it ran past `timeoutMs`. */
  timedOut: boolean;
}

/**
 * Run one program without a shell, its standard output optionally written to a file. The call's
 * signal kills it (SIGTERM), so a cancelled or timed-out scan does not keep running.
 */
export function runProcess(
  executable: string,
  argv: readonly string[],
  options: {
    stdoutFile?: string;
    env: NodeJS.ProcessEnv;
    cwd: string;
    signal: AbortSignal;
    timeoutMs: number;
  },
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    // One signal for the child: the call's cancellation or this process's own time limit.
    const stop = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, options.timeoutMs);
    const onAbort = () => stop.abort(options.signal.reason);
    options.signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
    };
    // The file descriptor goes to the child directly: its output is on disk when it exits.
    const out = options.stdoutFile ? openSync(options.stdoutFile, 'w', 0o600) : null;
    const child = spawn(executable, argv, {
      shell: false,
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', out ?? 'ignore', 'pipe'],
      signal: stop.signal,
      windowsHide: true,
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    if (out !== null) closeSync(out);
    child.on('error', (error) => {
      settle();
      if (options.signal.aborted) reject(options.signal.reason);
      else if (timedOut) resolve({ code: null, stderr: '', timedOut });
      else resolve({ code: null, stderr: error.message, timedOut });
    });
    child.on('close', (code) => {
      settle();
      if (options.signal.aborted) reject(options.signal.reason);
      else resolve({ code, stderr: stderr.trim(), timedOut });
    });
  });
}
