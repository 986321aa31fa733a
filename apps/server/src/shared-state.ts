/**
 * `--redis-url`: connect to the Redis that replicas share before anything is served, so a server
 * that cannot reach it refuses to start instead of quietly keeping its limits to itself.
 */
import { createRedisSharedState, type RedisConnectOptions, type RedisSharedState } from '@cloudg/redis';

export { RedisStartError } from '@cloudg/redis';
export type { RedisSharedState };

/** The environment variable read when `--redis-url` is not given. */
export const REDIS_URL_ENV = 'CLOUDG_MCP_REDIS_URL';

/** Connect (RedisStartError when Redis does not answer in time) and build the shared stores. */
export function connectSharedState(
  url: string,
  options: RedisConnectOptions = {},
): Promise<RedisSharedState> {
  return createRedisSharedState(url, options);
}
