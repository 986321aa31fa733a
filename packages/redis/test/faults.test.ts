/**
 * Redis going away and coming back, and Redis answering slowly: requests that need shared state
 * fail at once with a retryable error naming the cause (never a per-replica limit, never a
 * stall), and the replicas recover by themselves.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_STATE_UNAVAILABLE } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';
import { outcome, type Replica, replicas, sharedClock } from './support/replicas.js';

let redis: TestRedis;
let open: Replica[] = [];

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  for (const r of open) await r.state.close();
  await redis?.stop();
});

/** Call until the outcome is not the retryable error, for at most `ms`. */
async function untilServed(replica: Replica, ms: number): Promise<string | number> {
  const deadline = Date.now() + ms;
  let last: string | number = 'none';
  while (Date.now() < deadline) {
    last = outcome(await replica.layer.callTool('touch', {}));
    if (last !== SHARED_STATE_UNAVAILABLE) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

describe('Redis faults', () => {
  it('stopped mid-run: a clear retryable error on every replica, then recovery when it is back', async () => {
    const clock = sharedClock();
    open = await replicas(redis.url, 2, { rate_limits: [{ rate: 60, per: 'minute', burst: 2 }] }, clock.now);
    const [a, b] = open as [Replica, Replica];
    expect(outcome(await a.layer.callTool('touch', {}))).toBe('ok');

    await redis.pause();
    const failed = await b.layer.callTool('touch', {});
    expect(outcome(failed)).toBe(SHARED_STATE_UNAVAILABLE);
    const text = JSON.stringify(failed.content);
    // `touch` writes, so its first need is clearing the shared cache: the message names that.
    expect(text).toContain('Shared state unavailable: Redis (response_cache) is not connected');
    expect(text).toContain('retry shortly');
    // The limit is not silently kept per replica: A refuses too instead of admitting alone.
    expect(outcome(await a.layer.callTool('touch', {}))).toBe(SHARED_STATE_UNAVAILABLE);
    expect((await a.state.health()).ok).toBe(false);

    await redis.resume();
    expect(await untilServed(a, 5000)).toBe('ok');
    expect(await untilServed(b, 5000)).toBe('ok');
    expect((await b.state.health()).ok).toBe(true);
  });

  it('slow: a command that does not answer in time fails within its timeout', async () => {
    const clock = sharedClock();
    const [replica] = await replicas(
      redis.url,
      1,
      { rate_limits: [{ rate: 60, per: 'minute', burst: 5 }] },
      clock.now,
      300,
    );
    open.push(replica as Replica);
    await (replica as Replica).state.rateStore.reset();
    // Another client makes the server busy for 1.5 s (DEBUG SLEEP blocks it, as a slow Redis would).
    const blocker = new Redis(redis.url);
    const sleeping = blocker.call('DEBUG', 'SLEEP', '1.5');
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    const result = await (replica as Replica).layer.callTool('touch', {});
    const waited = performance.now() - started;
    expect(outcome(result)).toBe(SHARED_STATE_UNAVAILABLE);
    expect(JSON.stringify(result.content)).toContain('did not answer in time');
    // Bounded by the 300 ms command timeout, well before the server wakes up.
    expect(waited).toBeLessThan(1200);
    await sleeping;
    blocker.disconnect();
    // A command that timed out on the client may still run once Redis wakes: for a bucket that
    // means a token taken for a refused call (the safe direction), never one granted twice.
    expect(await untilServed(replica as Replica, 3000)).toBe('ok');
  });
});
