/** The bucket store port: a store that answers asynchronously (as a shared one does) enforces the same limits. */
import { defineTool, Principal, RateLimitedError } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { type BucketRequest, InProcessBucketStore, type RateBucketStore } from '../src/index.js';
import { fakeClock, load } from './helpers.js';

/** The in-process store behind a promise, counting the round trips a shared store would make. */
class DeferredStore implements RateBucketStore {
  readonly inner = new InProcessBucketStore();
  takes = 0;
  async take(requests: readonly BucketRequest[], now: number) {
    this.takes++;
    await new Promise((resolve) => setImmediate(resolve));
    return this.inner.take(requests, now);
  }
  async reset() {
    this.inner.reset();
  }
}

describe('rate bucket store', () => {
  it('admits the burst, then one call per refill, through an asynchronous store', async () => {
    const clock = fakeClock();
    const store = new DeferredStore();
    const policy = load(
      { rate_limits: [{ rate: 60, per: 'minute', burst: 3 }] },
      { clock: clock.now, rateStore: store },
    );
    const t = defineTool({ name: 't', handler: () => null });
    const alice = new Principal({ id: 'alice' });
    const call = async () => {
      try {
        await policy.checkCall(t, alice, { kind: 'tool', name: 't', arguments: {} });
        return 'ok';
      } catch (error) {
        if (error instanceof RateLimitedError) return (error.data as { retry_after: number }).retry_after;
        throw error;
      }
    };
    expect([await call(), await call(), await call(), await call()]).toEqual(['ok', 'ok', 'ok', 1]);
    clock.advance(1);
    expect([await call(), await call()]).toEqual(['ok', 1]);
    expect(store.takes).toBe(6);
    expect(policy.counters.rate_limited).toBe(2);
  });

  it('a store that cannot answer fails the call with its own error, not a rate limit decision', async () => {
    const failing: RateBucketStore = {
      take: () => Promise.reject(new Error('store down')),
      reset: () => {},
    };
    const policy = load({ rate_limits: [{ rate: 1, per: 'second' }] }, { rateStore: failing });
    const t = defineTool({ name: 't', handler: () => null });
    await expect(
      policy.checkCall(t, new Principal({ id: 'a' }), { kind: 'tool', name: 't', arguments: {} }),
    ).rejects.toThrow('store down');
    expect(policy.counters.rate_limited).toBe(0);
  });
});
