import { type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/**
 * The default logger: pino writing JSON lines to stderr, so stdout stays free for protocol
 * messages on stdio. The level comes from `CLOUDG_LOG_LEVEL` (default `info`).
 */
export function createLogger(options: { name?: string; level?: string } = {}): Logger {
  return pino(
    { name: options.name ?? 'cloudg', level: options.level ?? process.env.CLOUDG_LOG_LEVEL ?? 'info' },
    pino.destination({ dest: 2, sync: true }),
  );
}
