import { writeSync } from 'node:fs';
import { type DestinationStream, type Logger, pino } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type { Logger } from 'pino';

/** `pretty`: one human-readable line per entry; `json`: one JSON object per line. */
export type LogFormat = 'pretty' | 'json';

export interface CreateLoggerOptions {
  name?: string;
  /** A pino level name (`debug`, `info`, `warn`, `error`, ...). Default `CLOUDG_LOG_LEVEL`, else `info`. */
  level?: string;
  /**
   * Where entries go. Default stderr (descriptor 2, written synchronously), so stdout stays free
   * for protocol messages on stdio.
   */
  destination?: NodeJS.WritableStream & { isTTY?: boolean };
  /**
   * Default `CLOUDG_LOG_FORMAT` when it says `pretty` or `json`, else `pretty` when the destination
   * is a terminal and `json` otherwise: a person reads the terminal, a collector reads the rest.
   */
  format?: LogFormat;
  /** Environment read for the defaults. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** The format `createLogger` picks for a destination that is (or is not) a terminal. */
export function resolveLogFormat(
  isTTY: boolean,
  format?: LogFormat,
  env: NodeJS.ProcessEnv = process.env,
): LogFormat {
  if (format) return format;
  const fromEnv = env.CLOUDG_LOG_FORMAT?.trim().toLowerCase();
  if (fromEnv === 'pretty' || fromEnv === 'json') return fromEnv;
  return isTTY ? 'pretty' : 'json';
}

/**
 * A destination that renders each JSON line with pino-pretty as it is written, synchronously, so
 * a line logged just before the process exits is not lost in a worker or a stream buffer.
 */
function prettyDestination(write: (text: string) => void, colorize: boolean): DestinationStream {
  const render = prettyFactory({
    colorize,
    // `name` is the logger's own ("cloudg") unless an entry reuses the key for what it is about
    // (the decision log names the tool there); the message says that anyway.
    ignore: 'pid,hostname,name',
    translateTime: 'SYS:HH:MM:ss.l',
    singleLine: true,
  });
  return { write: (line: string) => write(render(line)) };
}

/**
 * The default logger: pino writing to stderr, so stdout stays free for protocol messages on stdio.
 * Human-readable lines on a terminal, JSON lines otherwise (see `CreateLoggerOptions.format`).
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const destination = options.destination;
  const isTTY = Boolean(destination ? destination.isTTY : process.stderr.isTTY);
  const format = resolveLogFormat(isTTY, options.format, env);
  const config = { name: options.name ?? 'cloudg', level: options.level ?? env.CLOUDG_LOG_LEVEL ?? 'info' };
  if (format === 'pretty') {
    const write = destination
      ? (text: string) => void destination.write(text)
      : (text: string) => void writeSync(2, text);
    return pino(config, prettyDestination(write, isTTY && !env.NO_COLOR));
  }
  return pino(config, destination ?? pino.destination({ dest: 2, sync: true }));
}
