/**
 * Three replicas sharing one real redis-server: one rate limit for all of them (counted, with an
 * injected clock, never wall-clock rates) and one response cache.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestRedis } from './support/redis-server.js';
import { outcome, type Replica, replicas, runs, sharedClock } from './support/replicas.js';

let redis: TestRedis;
let open: Replica[] = [];

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterEach(async () => {
  for (const r of open) await r.state.close();
  open = [];
});
afterAll(async () => {
  await redis?.stop();
});

describe('a rate limit shared by three replicas', () => {
  it('admits exactly its burst across the replicas, then one call per refill interval', async () => {
    const clock = sharedClock();
    open = await replicas(redis.url, 3, { rate_limits: [{ rate: 60, per: 'minute', burst: 5 }] }, clock.now);
    await open[0]?.state.rateStore.reset();
    const spread = async (calls: number) => {
      const outcomes: (string | number)[] = [];
      for (let i = 0; i < calls; i++) {
        const replica = open[i % open.length] as Replica;
        outcomes.push(outcome(await replica.layer.callTool('touch', {})));
      }
      return outcomes;
    };
    const first = await spread(12);
    expect(first.filter((o) => o === 'ok')).toHaveLength(5);
    expect(first.filter((o) => o === -31029)).toHaveLength(7);
    // One token a second: three seconds later exactly three more calls pass, on any replica.
    clock.advance(3);
    const second = await spread(9);
    expect(second.filter((o) => o === 'ok')).toHaveLength(3);
    expect(second.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
  });

  it('tells the caller how long to wait, from the shared bucket', async () => {
    const clock = sharedClock();
    open = await replicas(redis.url, 2, { rate_limits: [{ rate: 2, per: 'second', burst: 1 }] }, clock.now);
    await open[0]?.state.rateStore.reset();
    expect(outcome(await (open[0] as Replica).layer.callTool('touch', {}))).toBe('ok');
    const refused = await (open[1] as Replica).layer.callTool('touch', {});
    expect(outcome(refused)).toBe(-31029);
    expect(refused.structured ?? refused.content).toBeDefined();
    expect(JSON.stringify(refused.content)).toContain('retry in 0.5s');
  });
});

describe('a response cache shared by three replicas', () => {
  it('serves on B and C what A computed, and a write on C clears it for all', async () => {
    const clock = sharedClock();
    open = await replicas(redis.url, 3, {}, clock.now);
    const [a, b, c] = open as [Replica, Replica, Replica];
    await a.cache.invalidate();
    const before = runs.count;
    const first = await a.layer.callTool('get_asset', { ref: 'web-1' });
    const onB = await b.layer.callTool('get_asset', { ref: 'web-1' });
    const onC = await c.layer.callTool('get_asset', { ref: 'web-1' });
    expect(first.meta['cloudg/cache']).toBeUndefined();
    expect(onB.meta['cloudg/cache']).toBe('hit');
    expect(onC.structured).toEqual(first.structured);
    expect(runs.count - before).toBe(1);
    await c.layer.callTool('touch', {});
    const after = await b.layer.callTool('get_asset', { ref: 'web-1' });
    expect(after.meta['cloudg/cache']).toBeUndefined();
    expect(runs.count - before).toBe(2);
  });
});
