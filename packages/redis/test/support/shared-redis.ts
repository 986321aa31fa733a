/**
 * The hooks most replica test files share: one redis-server for the whole file, and the replicas
 * a test started closed after that test (in order, one at a time). Call once at a file's top
 * level; a test assigns what it starts to `replicas`.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { TestRedis } from './redis-server.js';

export interface SharedRedis<R> {
  /** The file's redis-server (started before its first test). */
  readonly redis: TestRedis;
  /** The replicas the running test started; closed and emptied after it. */
  replicas: R[];
}

export function sharedRedis<R extends { close(): Promise<void> }>(): SharedRedis<R> {
  let redis: TestRedis | undefined;
  const env = {
    get redis(): TestRedis {
      if (!redis) throw new Error('the redis-server starts in beforeAll: use it inside a test');
      return redis;
    },
    replicas: [] as R[],
  };
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterEach(async () => {
    for (const r of env.replicas) await r.close();
    env.replicas = [];
  });
  afterAll(async () => {
    await redis?.stop();
  });
  return env;
}
