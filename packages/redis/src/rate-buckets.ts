/**
 * Rate-limit buckets in Redis: one hash per bucket (tokens, updated), refilled and charged by one
 * Lua script for all the buckets of a call, so a call refused by one bucket costs nothing in the
 * others and N replicas enforce one limit. The time comes from the caller's clock (wall-clock
 * seconds every replica agrees on; tests inject one), not from Redis, so limits can be tested
 * by counting admitted calls instead of measuring rates.
 */
import type { BucketOutcome, BucketRequest, RateBucketStore } from '@cloudg/policy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import { LuaScript } from './script.js';

// KEYS: bucket keys. ARGV: now, then capacity and refill per second of each bucket.
// Returns {1} when admitted, or {0, index (1-based), wait as a string} (Lua numbers become
// integers on the way back, so the fractional wait travels as text).
const TAKE = new LuaScript(`
local now = tonumber(ARGV[1])
local tokens = {}
local worst, worstWait = 0, -1
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[2 * i])
  local rate = tonumber(ARGV[2 * i + 1])
  local state = redis.call('HMGET', key, 'tokens', 'updated')
  local t = tonumber(state[1])
  if t == nil then
    t = capacity
  else
    local elapsed = now - tonumber(state[2])
    if elapsed < 0 then elapsed = 0 end
    t = math.min(capacity, t + elapsed * rate)
  end
  tokens[i] = t
  if t < 1 then
    local wait = (1 - t) / rate
    if wait > worstWait then worst, worstWait = i, wait end
  end
end
for i, key in ipairs(KEYS) do
  local t = tokens[i]
  if worst == 0 then t = t - 1 end
  local capacity = tonumber(ARGV[2 * i])
  local rate = tonumber(ARGV[2 * i + 1])
  redis.call('HSET', key, 'tokens', tostring(t), 'updated', tostring(now))
  -- A bucket left alone refills completely in (capacity - t) / rate seconds; then it may go.
  redis.call('PEXPIRE', key, math.ceil(((capacity - t) / rate + 60) * 1000))
end
if worst == 0 then return {1} end
return {0, worst, tostring(worstWait)}
`);

export class RedisBucketStore implements RateBucketStore {
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
  ) {}

  async take(requests: readonly BucketRequest[], now: number): Promise<BucketOutcome> {
    const keys = requests.map((r) => `${this.prefix}rate:${r.key}`);
    const args: (string | number)[] = [now];
    for (const r of requests) args.push(r.capacity, r.refillPerSecond);
    const answer = (await shared('rate_limits', () => TAKE.run(this.client, keys, args))) as [
      number,
      number?,
      string?,
    ];
    if (answer[0] === 1) return { admitted: true };
    return { admitted: false, index: (answer[1] ?? 1) - 1, wait: Number(answer[2]) };
  }

  /** Forget every bucket under this prefix (all replicas start full). */
  async reset(): Promise<void> {
    await shared('rate_limits', async () => {
      let cursor = '0';
      do {
        const [next, keys] = await this.client.scan(cursor, 'MATCH', `${this.prefix}rate:*`, 'COUNT', 500);
        if (keys.length > 0) await this.client.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    });
  }
}
