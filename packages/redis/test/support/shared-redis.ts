/**
 * The hooks most replica test files share: one redis-server for the whole file, and the replicas
 * a test started closed after that test (in order, one at a time). Call once at a file's top
 * level; a test assigns what it starts to `replicas`. Files that look into Redis or cut its
 * connections use `admin`, a connection of their own made on first use.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { TestRedis } from './redis-server.js';

export interface SharedRedis<R> {
  /** The file's redis-server (started before its first test). */
  readonly redis: TestRedis;
  /** The replicas the running test started; closed and emptied after it. */
  replicas: R[];
  /** The tests' own connection; after each test, maxclients is back to Redis's default. */
  readonly admin: Redis;
  /** The ids of the connections in subscribe mode (a replica's pub/sub one, to cut it). */
  subscriberIds(): Promise<Set<string>>;
}

export function sharedRedis<R extends { close(): Promise<void> }>(): SharedRedis<R> {
  let redis: TestRedis | undefined;
  let admin: Redis | undefined;
  const env: SharedRedis<R> = {
    get redis(): TestRedis {
      if (!redis) throw new Error('the redis-server starts in beforeAll: use it inside a test');
      return redis;
    },
    replicas: [],
    get admin(): Redis {
      admin ??= new Redis(env.redis.url);
      return admin;
    },
    async subscriberIds() {
      const list = String(await env.admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
      return new Set([...list.matchAll(/\bid=(\d+)/g)].map((m) => m[1] as string));
    },
  };
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterEach(async () => {
    // A test that cut connections lowered it; the replicas' closing and the next test need it back.
    if (admin) await admin.config('SET', 'maxclients', '10000');
    for (const r of env.replicas) await r.close();
    env.replicas = [];
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.stop();
  });
  return env;
}
