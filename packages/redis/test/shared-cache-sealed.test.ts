/** The response cache in Redis, sealed with the vault key: served across replicas, opaque in Redis. */
import { createVaultSealer } from '@cloudg/privacy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';

let redis: TestRedis;
const states: RedisSharedState[] = [];

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  for (const s of states) await s.close();
  await redis?.stop();
});

async function replica(key: string): Promise<RedisSharedState> {
  const state = await createRedisSharedState(redis.url, { keyPrefix: 'sealed-cache:' });
  state.cacheStore.sealWith(createVaultSealer({ key }));
  states.push(state);
  return state;
}

describe('a sealed response cache', () => {
  it('serves on B what A cached, and Redis holds neither the key nor the result in clear', async () => {
    const [a, b] = [await replica('cache-key'), await replica('cache-key')];
    const response = {
      content: [{ type: 'text' as const, text: 'i-0abc123 in 123456789012' }],
      isError: false,
    };
    await a.cacheStore.set('alice\u0000get_asset\u0000{"ref":"i-0abc123"}', response as never, 60);
    expect(await b.cacheStore.get('alice\u0000get_asset\u0000{"ref":"i-0abc123"}')).toEqual(response);
    const keys = await a.client.keys('sealed-cache:*');
    let dump = keys.join('\n');
    for (const key of keys) dump += (await a.client.get(key)) ?? '';
    for (const needle of ['i-0abc123', '123456789012', 'alice', 'get_asset'])
      expect(dump).not.toContain(needle);
  });

  it('a replica with another vault key finds nothing', async () => {
    const [a, other] = [await replica('cache-key'), await replica('another-key')];
    await a.cacheStore.set('k', { content: [], isError: false } as never, 60);
    expect(await other.cacheStore.get('k')).toBeUndefined();
  });
});
