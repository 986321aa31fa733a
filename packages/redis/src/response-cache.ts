/**
 * The response cache in Redis. Keys are SHA-256 digests of the middleware's cache key (which
 * holds the principal and the arguments: no caller value is written into a key name), under a
 * generation number; clearing the cache is one INCR of the generation, so a write on any replica
 * makes every older entry unreachable at once, and Redis expires them by their TTL.
 *
 * An entry is a result as the caller's policy shows it, which under most profiles still names
 * real assets: once `sealWith` gives it the vault's sealer, entries are sealed (AES-256-GCM) and
 * keyed by a keyed digest instead of a plain SHA-256, so Redis holds neither in clear.
 */
import { createHash } from 'node:crypto';
import type { CachedResponse, ResponseCacheStore } from '@cloudg/core';
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import { LuaScript } from './script.js';

// KEYS: generation key. ARGV: prefix, digest[, value, ttl ms].
const GET = new LuaScript(`
local gen = redis.call('GET', KEYS[1]) or '0'
return redis.call('GET', ARGV[1] .. gen .. ':' .. ARGV[2])
`);
const SET = new LuaScript(`
local gen = redis.call('GET', KEYS[1]) or '0'
redis.call('SET', ARGV[1] .. gen .. ':' .. ARGV[2], ARGV[3], 'PX', ARGV[4])
return 1
`);

const LABEL = 'response-cache';

export class RedisResponseCache implements ResponseCacheStore {
  private readonly generation: string;
  private readonly entries: string;
  private sealer: VaultSealer | undefined;

  constructor(
    private readonly client: Redis,
    prefix: string,
  ) {
    this.generation = `${prefix}cache:generation`;
    this.entries = `${prefix}cache:`;
  }

  /**
   * Seal entries with the vault key from now on (every replica must do the same: entries of a
   * replica that does not are not found by the others, and the reverse).
   */
  sealWith(sealer: VaultSealer): void {
    this.sealer = sealer;
  }

  private digest(key: string): string {
    if (this.sealer) return this.sealer.lookup(key);
    return createHash('sha256').update(key).digest('base64url');
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    const json = (await shared('response_cache', () =>
      GET.run(this.client, [this.generation], [this.entries, this.digest(key)]),
    )) as string | null;
    if (json === null) return undefined;
    return JSON.parse(this.sealer ? this.sealer.open(json, LABEL) : json) as CachedResponse;
  }

  async set(key: string, response: CachedResponse, ttlSeconds: number): Promise<void> {
    const ttl = Math.max(1, Math.round(ttlSeconds * 1000));
    await shared('response_cache', () =>
      SET.run(this.client, [this.generation], [this.entries, this.digest(key), this.encode(response), ttl]),
    );
  }

  private encode(response: CachedResponse): string {
    const json = JSON.stringify(response);
    return this.sealer ? this.sealer.seal(json, LABEL) : json;
  }

  async clear(): Promise<void> {
    await shared('response_cache', () => this.client.incr(this.generation));
  }
}
