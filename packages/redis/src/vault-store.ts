/**
 * The pseudonym vault's shared store in Redis: two hashes, one from each value's keyed digest to
 * its sealed mapping and one from each pseudonym's keyed digest to the same sealed mapping. The
 * vault seals before anything reaches this store (see @cloudg/privacy's shared-store.ts), so
 * Redis holds no real value in clear: digests and AES-256-GCM records under the vault key.
 *
 * A claim is one Lua script for a whole pass's new mappings: the first mapping of a value and the
 * first holder of a pseudonym win, so a collision between replicas is resolved once, by Redis,
 * and every replica adopts the winner. Both hashes hold the very same sealed string for a
 * mapping, which is how the script tells "already this mapping" from "another one". A reveal is
 * one HMGET for every pseudonym a pass missed. So a strict page of 500 results costs at most two
 * round trips, whatever it holds.
 */
import type { SealedMapping, SharedClaim, SharedVaultStore } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import { LuaScript } from './script.js';

// KEYS: values hash, pseudonyms hash. ARGV: triples of value key, pseudonym key, sealed mapping.
// Returns one string per mapping: '' when it is now (or already was) the stored one, else 'v' or
// 'p' followed by the sealed mapping that holds the value or the pseudonym.
const CLAIM = new LuaScript(`
local out = {}
for i = 1, #ARGV, 3 do
  local vfield, pfield, sealed = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local byValue = redis.call('HGET', KEYS[1], vfield)
  if byValue then
    if redis.call('HGET', KEYS[2], pfield) == byValue then out[#out + 1] = ''
    else out[#out + 1] = 'v' .. byValue end
  else
    local holder = redis.call('HGET', KEYS[2], pfield)
    if holder then
      out[#out + 1] = 'p' .. holder
    else
      redis.call('HSET', KEYS[1], vfield, sealed)
      redis.call('HSET', KEYS[2], pfield, sealed)
      out[#out + 1] = ''
    end
  end
end
return out
`);

export class RedisVaultStore implements SharedVaultStore {
  private readonly values: string;
  private readonly pseudonyms: string;

  constructor(
    private readonly client: Redis,
    prefix: string,
  ) {
    this.values = `${prefix}vault:values`;
    this.pseudonyms = `${prefix}vault:pseudonyms`;
  }

  async claim(mappings: readonly SealedMapping[]): Promise<SharedClaim[]> {
    if (mappings.length === 0) return [];
    const args: string[] = [];
    for (const m of mappings) args.push(m.valueKey, m.pseudonymKey, m.sealed);
    const answers = (await shared('vault', () =>
      CLAIM.run(this.client, [this.values, this.pseudonyms], args),
    )) as string[];
    return answers.map((answer): SharedClaim => {
      if (answer === '') return { status: 'ok' };
      return { status: answer[0] === 'v' ? 'value' : 'pseudonym', holder: answer.slice(1) };
    });
  }

  async reveal(pseudonymKeys: readonly string[]): Promise<(string | undefined)[]> {
    if (pseudonymKeys.length === 0) return [];
    const found = await shared('vault', () => this.client.hmget(this.pseudonyms, ...pseudonymKeys));
    return found.map((sealed) => sealed ?? undefined);
  }

  /** Forget every shared mapping (tests; an operator rotating the vault key). */
  async clear(): Promise<void> {
    await shared('vault', () => this.client.del(this.values, this.pseudonyms));
  }
}
