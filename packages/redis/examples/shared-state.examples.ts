/**
 * Two layers (two replicas) sharing one Redis: the policy's rate limits and vault, and the
 * response cache, each from the same connection's stores. Runs against REDIS_URL when set.
 */
import { CachingMiddleware, Layer, Registry } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { createRedisSharedState } from '@cloudg/redis';

export async function replicaExample(url: string): Promise<void> {
  // #region replica
  const shared = await createRedisSharedState(url); // RedisStartError if Redis does not answer
  const policy = Policy.load(
    { rate_limits: [{ rate: 60, per: 'minute', burst: 10 }] },
    {
      rateStore: shared.rateStore, // one bucket for every replica
      vaultStore: shared.vaultStore, // pseudonyms reveal on any replica
      clock: () => Date.now() / 1000, // wall-clock seconds: every replica agrees on them
    },
  );
  const cache = new CachingMiddleware({ ttl: 30, store: shared.cacheStore });
  const registry = new Registry();
  registry.tool({ name: 'hello', readOnly: true, idempotent: true, handler: () => ({ hi: true }) });
  const layer = new Layer({ registry, policy, middleware: [cache.middleware] });
  const result = await layer.callTool('hello', {});
  // With Redis down: result.meta['cloudg/error_code'] === 'shared_state_unavailable' (retryable)
  console.log(result.structured, await shared.health());
  await shared.close();
  // #endregion replica
}

if (process.env.REDIS_URL) await replicaExample(process.env.REDIS_URL);
