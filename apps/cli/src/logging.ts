/**
 * The logger every command shares with its layer and policy: human-readable on a terminal, JSON
 * lines otherwise, always on stderr, at the level `--log-level` sets (log-level.ts).
 */
import { createLogger, type Logger } from '@cloudg/core';
import type { CliIo } from './io.js';
import { pinoLevelFor } from './log-level.js';

/** The logger of one command run, at its level, to the CLI's log stream (stderr by default). */
export function cliLogger(flag: string | undefined, io: CliIo): Logger {
  const level = pinoLevelFor(flag, io.env);
  return createLogger({
    level,
    env: io.env,
    ...(io.logStream ? { destination: io.logStream } : {}),
  });
}
