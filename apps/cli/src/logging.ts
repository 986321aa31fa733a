/**
 * `--log-level` and the logger every command shares with its layer and policy: human-readable on
 * a terminal, JSON lines otherwise, always on stderr.
 */
import { createLogger, type Logger } from '@cloudg/core';
import { LOG_LEVELS } from '@cloudg/server';
import { type Command, Option } from 'commander';
import { CliError, type CliIo } from './io.js';

/** The CLI's level names (the reference's, Python logging's) and pino's spelling of each. */
const PINO_LEVEL: Record<string, string> = { DEBUG: 'debug', INFO: 'info', WARNING: 'warn', ERROR: 'error' };

/** What CLOUDG_LOG_LEVEL may also hold: pino's own names. */
const PINO_NAMES = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);

export const DEFAULT_LOG_LEVEL = 'WARNING';

/** `--log-level`: DEBUG, INFO, WARNING or ERROR in any case, checked as it is parsed (status 2). */
export function parseLogLevel(value: string): string {
  const up = value.trim().toUpperCase();
  if (!(LOG_LEVELS as readonly string[]).includes(up)) {
    throw new CliError(`Invalid value for --log-level: '${value}' is not one of ${LOG_LEVELS.join(', ')}`, 2);
  }
  return up;
}

export function addLogLevelOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--log-level <LEVEL>',
      `DEBUG, INFO, WARNING or ERROR; logs go to stderr (env CLOUDG_LOG_LEVEL; default ${DEFAULT_LOG_LEVEL})`,
    ).argParser(parseLogLevel),
  );
}

/**
 * The pino level for a command: `--log-level`, else CLOUDG_LOG_LEVEL (the CLI's names or pino's),
 * else WARNING, so a command prints nothing but its result and real problems unless asked.
 */
export function pinoLevelFor(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined) return PINO_LEVEL[parseLogLevel(flag)]!;
  const fromEnv = env.CLOUDG_LOG_LEVEL?.trim();
  if (fromEnv) {
    const up = fromEnv.toUpperCase();
    if (PINO_LEVEL[up]) return PINO_LEVEL[up];
    if (PINO_NAMES.has(fromEnv.toLowerCase())) return fromEnv.toLowerCase();
    throw new CliError(
      `Invalid value for CLOUDG_LOG_LEVEL: '${fromEnv}' is not one of ${LOG_LEVELS.join(', ')}`,
      2,
    );
  }
  return PINO_LEVEL[DEFAULT_LOG_LEVEL]!;
}

/** The logger of one command run, at its level, to the CLI's log stream (stderr by default). */
export function cliLogger(flag: string | undefined, io: CliIo): Logger {
  const level = pinoLevelFor(flag, io.env);
  return createLogger({
    level,
    env: io.env,
    ...(io.logStream ? { destination: io.logStream } : {}),
  });
}
