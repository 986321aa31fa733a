/**
 * One Redis connection for all the shared state of a replica. Commands never queue while the
 * connection is down (enableOfflineQueue off) and each has a bounded time (commandTimeout), so a
 * request that needs shared state fails at once with a retryable error instead of waiting, and
 * the client reconnects in the background by itself when Redis returns.
 */
import { McpLayerError } from '@cloudg/core';
import { Redis } from 'ioredis';

export interface RedisConnectOptions {
  /** Milliseconds a command may take before it fails. Default 1000. */
  commandTimeoutMs?: number;
  /** Milliseconds the first connection may take before start-up gives up. Default 3000. */
  connectTimeoutMs?: number;
  /** Prefix of every key this replica writes. Default `cloudg:`. */
  keyPrefix?: string;
  /**
   * How often this replica proves to the others that it is alive (shared sessions): a stream it
   * held is free for another replica three beats after it dies. Default 2000 ms.
   */
  heartbeatMs?: number;
}

/** Redis was not reachable when the server started (code `redis_unreachable`). */
export class RedisStartError extends McpLayerError {
  override readonly code: string = 'redis_unreachable';
  declare readonly data: { url: string; reason: string };

  /** `url` is shown as given: pass it through redactRedisUrl first. */
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Cannot reach Redis at ${url}: ${reason}`, { data: { url, reason }, cause });
  }
}

/** The URL without its password, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://(unparseable URL)';
  }
}

/** Connect, and wait for Redis to answer PING; RedisStartError when it does not in time. */
export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<Redis> {
  const shown = redactRedisUrl(url);
  let client: Redis;
  try {
    client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: options.connectTimeoutMs ?? 3000,
      // Keep trying in the background, never more than a second apart, for as long as it takes.
      retryStrategy: (attempt) => Math.min(50 * attempt, 1000),
    });
  } catch (error) {
    throw new RedisStartError(shown, error);
  }
  // Connection errors are reported through requests and the health check, not as unhandled events.
  client.on('error', () => {});
  try {
    await withTimeout(client.connect(), options.connectTimeoutMs ?? 3000);
    await client.ping();
    return client;
  } catch (error) {
    client.disconnect();
    throw new RedisStartError(shown, error);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
