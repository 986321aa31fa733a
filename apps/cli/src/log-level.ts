/**
 * `--log-level` and the level a command logs at. Kept apart from the logger itself (logging.ts),
 * which loads pino through @cloudg/core, so that defining the option costs nothing.
 */
import { type Command, Option } from 'commander';
import { CliError } from './cli-error.js';
import type { CliIo } from './io.js';

/**
 * The CLI's level names (the reference's, Python logging's) and pino's spelling of each. The same
 * names as @cloudg/server's `LOG_LEVELS`, spelled out here so the option needs no server loaded.
 */
const PINO_LEVEL: Record<string, string> = { DEBUG: 'debug', INFO: 'info', WARNING: 'warn', ERROR: 'error' };
const LEVEL_NAMES = Object.keys(PINO_LEVEL);

/** What CLOUDG_LOG_LEVEL may also hold: pino's own names. */
const PINO_NAMES = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);

export const DEFAULT_LOG_LEVEL = 'WARNING';

/** `--log-level`: DEBUG, INFO, WARNING or ERROR in any case, checked as it is parsed (status 2). */
export function parseLogLevel(value: string): string {
  const up = value.trim().toUpperCase();
  if (!LEVEL_NAMES.includes(up)) {
    throw new CliError(
      `Invalid value for --log-level: '${value}' is not one of ${LEVEL_NAMES.join(', ')}`,
      2,
    );
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
export function pinoLevelFor(flag: string | undefined, env: CliIo['env']): string {
  if (flag !== undefined) return PINO_LEVEL[parseLogLevel(flag)]!;
  const fromEnv = env.CLOUDG_LOG_LEVEL?.trim();
  if (fromEnv) {
    const up = fromEnv.toUpperCase();
    if (PINO_LEVEL[up]) return PINO_LEVEL[up];
    if (PINO_NAMES.has(fromEnv.toLowerCase())) return fromEnv.toLowerCase();
    throw new CliError(
      `Invalid value for CLOUDG_LOG_LEVEL: '${fromEnv}' is not one of ${LEVEL_NAMES.join(', ')}`,
      2,
    );
  }
  return PINO_LEVEL[DEFAULT_LOG_LEVEL]!;
}
