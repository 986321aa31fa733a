/**
 * Keep stdout for protocol messages only. While serving, `process.stdout.write` (and so
 * `console.log` and anything else writing through the stream) goes to stderr; the server keeps a
 * private writer bound to the real stdout.
 *
 * Node cannot re-point file descriptor 1 inside a running process, so a library calling
 * `fs.writeSync(1, ...)`, a native addon or a child process inheriting stdout still reaches the
 * descriptor. For those, serve on another descriptor (`stdoutFd`, `writableForFd`) from a process
 * whose descriptor 1 is stderr: `cloudg-mcp serve` relaunches itself that way.
 */

export interface ProtectedStdout {
  /** Writes to the real stdout. */
  write(text: string, callback: (error?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): void;
  /** Put `process.stdout.write` back. */
  restore(): void;
}

export function protectStdout(): ProtectedStdout {
  const stdout = process.stdout;
  const original = stdout.write;
  const realWrite = original.bind(stdout) as (
    text: string,
    callback: (error?: Error | null) => void,
  ) => boolean;
  const toStderr = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
  stdout.write = toStderr;
  let restored = false;
  return {
    write: realWrite,
    once: (event, listener) => stdout.once(event, listener),
    restore: () => {
      if (restored) return;
      restored = true;
      if (stdout.write === toStderr) stdout.write = original;
    },
  };
}
