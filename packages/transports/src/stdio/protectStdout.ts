/**
 * Keep stdout for protocol messages only. While serving, `process.stdout.write` (and so
 * `console.log` and anything else writing through the stream) goes to stderr; the server keeps a
 * private writer bound to the real stdout.
 *
 * Node cannot re-point file descriptor 1 itself, so a library calling `fs.writeSync(1, ...)`
 * directly still reaches the protocol stream; writes through `process.stdout` cannot.
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
