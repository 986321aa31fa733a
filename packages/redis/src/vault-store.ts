/**
 * The pseudonym vault's shared store in Redis: two hashes, one from (namespace, entity, value)
 * to the mapping and one from (namespace, pseudonym) to it. A claim is one Lua script for a
 * whole pass's new mappings: the first mapping of a value and the first holder of a pseudonym
 * win, so a collision between replicas is resolved once, by Redis, and every replica adopts the
 * winner. A reveal is one HMGET for every pseudonym a pass missed. So a strict page of 500
 * results costs at most two round trips, whatever it holds.
 */
import type { SharedClaim, SharedPseudonym, SharedVaultStore, VaultEntry } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import { LuaScript } from './script.js';

// KEYS: values hash, pseudonyms hash. ARGV: triples of value field, pseudonym field, mapping JSON.
// Returns one string per mapping: '' when it is now (or already was) the stored one, else 'v' or
// 'p' followed by the JSON of the mapping that holds the value or the pseudonym.
const CLAIM = new LuaScript(`
local out = {}
for i = 1, #ARGV, 3 do
  local vfield, pfield, json = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local byValue = redis.call('HGET', KEYS[1], vfield)
  if byValue then
    if redis.call('HGET', KEYS[2], pfield) == byValue then out[#out + 1] = ''
    else out[#out + 1] = 'v' .. byValue end
  else
    local holder = redis.call('HGET', KEYS[2], pfield)
    if holder then
      out[#out + 1] = 'p' .. holder
    else
      redis.call('HSET', KEYS[1], vfield, json)
      redis.call('HSET', KEYS[2], pfield, json)
      out[#out + 1] = ''
    end
  end
end
return out
`);

const SEP = '\u0000';

/** The fields a mapping is stored under: its value's and its pseudonym's. */
function valueField(e: VaultEntry): string {
  return `${e.namespace}${SEP}${e.entity}${SEP}${e.real}`;
}
function pseudonymField(namespace: string, pseudonym: string): string {
  return `${namespace}${SEP}${pseudonym}`;
}

/** Stored without use times: they are each replica's own (a TTL is not shared yet). */
function encode(e: VaultEntry): string {
  return JSON.stringify([e.namespace, e.entity, e.real, e.pseudonym, e.created]);
}
function decode(json: string): VaultEntry {
  const [namespace, entity, real, pseudonym, created] = JSON.parse(json) as [
    string,
    string,
    string,
    string,
    number,
  ];
  return { namespace, entity, real, pseudonym, created, lastUsed: created };
}

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

  async claim(entries: readonly VaultEntry[]): Promise<SharedClaim[]> {
    if (entries.length === 0) return [];
    const args: string[] = [];
    for (const e of entries) args.push(valueField(e), pseudonymField(e.namespace, e.pseudonym), encode(e));
    const answers = (await shared('vault', () =>
      CLAIM.run(this.client, [this.values, this.pseudonyms], args),
    )) as string[];
    return answers.map((answer): SharedClaim => {
      if (answer === '') return { status: 'ok' };
      return { status: answer[0] === 'v' ? 'value' : 'pseudonym', holder: decode(answer.slice(1)) };
    });
  }

  async reveal(keys: readonly SharedPseudonym[]): Promise<(VaultEntry | undefined)[]> {
    if (keys.length === 0) return [];
    const fields = keys.map((k) => pseudonymField(k.namespace, k.pseudonym));
    const found = await shared('vault', () => this.client.hmget(this.pseudonyms, ...fields));
    return found.map((json) => (json === null ? undefined : decode(json)));
  }

  /** Forget every shared mapping (tests; an operator rotating the vault key). */
  async clear(): Promise<void> {
    await shared('vault', () => this.client.del(this.values, this.pseudonyms));
  }
}
