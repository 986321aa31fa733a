/**
 * The pseudonym vault's shared store in Redis: one hash (`vault:holders`) filing each mapping under
 * its pseudonym's keyed digest, as `<reference> <value digest>` (the reference is `<batch id>:<n>`,
 * the mapping's place in its batch; the value digest tells a holder of the same value from
 * another value's), and one string per batch (`vault:batch:<id>`) holding the batch's mappings
 * sealed together. The vault seals before anything reaches this store (see @cloudg/privacy's
 * shared-store.ts), so Redis holds no real value or pseudonym in clear: digests, references and
 * AES-256-GCM records under the vault key.
 *
 * A claim is one Lua script for a batch of new mappings (a vault sends a pass's in parts of 500,
 * the first ones while the pass is still running): the first holder of a pseudonym wins, so a
 * collision between replicas is resolved once, by Redis, and every replica adopts the winner; a
 * mapping whose value is already filed under a candidate the vault passed over is answered with
 * that mapping instead. A reveal is one script for every pseudonym a pass missed. Either answers
 * the batches its references point into, so a strict page of 500 results costs one reveal and a
 * few claims sent without waiting on each other.
 */
import type { MappingKeys, SealedBatch, SharedAnswer, SharedClaim, SharedVaultStore } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import { LuaScript } from './script.js';

// Appends to `out` each batch a reference points into, once.
const BATCHES = `
local function attach(out, refs, prefix)
  local seen = {}
  for _, ref in ipairs(refs) do
    local id = ref ~= '' and string.match(ref, '^([^:]+):') or nil
    if id and not seen[id] then
      seen[id] = true
      local sealed = redis.call('GET', prefix .. id)
      if sealed then out[#out + 1] = id; out[#out + 1] = sealed end
    end
  end
end
`;

// KEYS: holders hash. ARGV: batch key prefix, batch id, sealed batch, then the mappings' keys in
// one argument: pseudonym key and value key of each mapping in turn, joined by ','; then,
// optionally, the passed candidates in one argument: `<n>:<pseudonym key>` joined by ','. The n-th
// mapping's reference is `<batch id>:<n>` (0-based), which the port fixes, so it is built here.
// Returns the answers that are not 'ok', packed the same way (`<n>=v<holder>` when the value is
// filed under a passed candidate, `<n>=p<holder>` when another value holds the pseudonym; '' when
// every mapping is now, or already was, filed), then pairs of batch id and sealed batch for the
// holders.
//
// Why so packed: a cold strict page claims about 2,500 mappings. ioredis encodes every argument
// on its own and the reply's every element, so two arguments per mapping cost the client more
// than the rest of the claim; and each hash entry Redis writes costs it a few microseconds, on a
// core it shares with the replica (loopback), so the mappings are filed once, by pseudonym, with
// one HMGET and one HSET per chunk. Within a batch, mappings are decided in order as if written one
// by one (`claimed`).
const CLAIM = new LuaScript(`${BATCHES}
local function split(held)
  local cut = string.find(held, ' ', 1, true)
  return string.sub(held, 1, cut - 1), string.sub(held, cut + 1)
end
local keys = {}
for key in string.gmatch(ARGV[4], '[^,]+') do keys[#keys + 1] = key end
local n = #keys / 2
local passed = {}
if ARGV[5] then
  for index, key in string.gmatch(ARGV[5], '(%d+):([^,]+)') do
    local i = tonumber(index) + 1
    passed[i] = passed[i] or {}
    passed[i][#passed[i] + 1] = key
  end
end
local CHUNK = 1000
local id = ARGV[2]
local answers, holders, claimed, stored = {}, {}, {}, false
for first = 1, n, CHUNK do
  local last = math.min(n, first + CHUNK - 1)
  local fields = {}
  for i = first, last do fields[i - first + 1] = keys[2 * i - 1] end
  local held = redis.call('HMGET', KEYS[1], unpack(fields))
  local new, count = {}, 0
  for j = 1, #fields do
    local i = first + j - 1
    local field, value = fields[j], keys[2 * i]
    local answer
    local probes = passed[i]
    if probes then
      for _, probe in ipairs(probes) do
        local other = claimed[probe] or redis.call('HGET', KEYS[1], probe)
        if other then
          local ref, holderValue = split(other)
          if holderValue == value then answer = 'v' .. ref; break end
        end
      end
    end
    if not answer then
      local holder = claimed[field] or held[j]
      if holder then
        local ref, holderValue = split(holder)
        if holderValue ~= value then answer = 'p' .. ref end
      else
        local entry = id .. ':' .. (i - 1) .. ' ' .. value
        claimed[field] = entry
        new[count + 1] = field; new[count + 2] = entry; count = count + 2
        stored = true
      end
    end
    if answer then
      answers[#answers + 1] = (i - 1) .. '=' .. answer
      holders[#holders + 1] = string.sub(answer, 2)
    end
  end
  if count > 0 then redis.call('HSET', KEYS[1], unpack(new)) end
end
if stored then redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3]) end
local out = { table.concat(answers, ',') }
attach(out, holders, ARGV[1])
return out
`);

// KEYS: holders hash. ARGV: batch key prefix, then pseudonym keys joined by ','. Returns the
// references joined by ',' ('' for none), then pairs of batch id and sealed batch.
const REVEAL = new LuaScript(`${BATCHES}
local refs = {}
for key in string.gmatch(ARGV[2], '[^,]+') do
  local held = redis.call('HGET', KEYS[1], key)
  refs[#refs + 1] = held and string.match(held, '^[^ ]+') or ''
end
local out = { table.concat(refs, ',') }
attach(out, refs, ARGV[1])
return out
`);

const OK: SharedClaim = { status: 'ok' };

/**
 * `keys` joined by ',' as the scripts split them, checked in one pass over the joined text (a
 * claim packs thousands): no key empty or holding a separator of the scripts.
 */
function packed(keys: readonly string[]): string {
  const joined = keys.join(',');
  // n keys joined give n - 1 commas exactly when none holds one of its own.
  let commas = 0;
  for (let at = joined.indexOf(','); at >= 0; at = joined.indexOf(',', at + 1)) commas++;
  if (commas !== keys.length - 1 || joined === '' || /[: =]|,,|^,|,$/.test(joined))
    throw new Error('a shared vault key is empty or holds a separator');
  return joined;
}

function batchesAfter(reply: string[], n: number): Record<string, string> {
  const batches: Record<string, string> = {};
  for (let i = n; i + 1 < reply.length; i += 2) batches[reply[i] as string] = reply[i + 1] as string;
  return batches;
}

export class RedisVaultStore implements SharedVaultStore {
  private readonly holders: string;
  private readonly batches: string;

  constructor(
    private readonly client: Redis,
    prefix: string,
  ) {
    this.holders = `${prefix}vault:holders`;
    this.batches = `${prefix}vault:batch:`;
  }

  async claim(batch: SealedBatch, mappings: readonly MappingKeys[]): Promise<SharedAnswer<SharedClaim>> {
    if (mappings.length === 0) return { answers: [], batches: {} };
    const keys: string[] = [batch.id];
    const passed: string[] = [];
    const numbered: string[] = [];
    mappings.forEach((m, i) => {
      keys.push(m.pseudonymKey, m.valueKey);
      for (const key of m.passed ?? []) {
        passed.push(key);
        numbered.push(`${i}:${key}`);
      }
    });
    // The batch id is checked with the keys, then cut off (it is sent on its own).
    const args = [this.batches, batch.id, batch.sealed, packed(keys).slice(batch.id.length + 1)];
    if (passed.length > 0) {
      packed(passed);
      args.push(numbered.join(','));
    }
    const reply = (await shared('vault', () => CLAIM.run(this.client, [this.holders], args))) as string[];
    const answers: SharedClaim[] = new Array<SharedClaim>(mappings.length).fill(OK);
    const notTaken = reply[0] ?? '';
    if (notTaken !== '') {
      for (const answer of notTaken.split(',')) {
        const cut = answer.indexOf('=');
        answers[Number(answer.slice(0, cut))] = {
          status: answer[cut + 1] === 'v' ? 'value' : 'pseudonym',
          holder: answer.slice(cut + 2),
        };
      }
    }
    return { answers, batches: batchesAfter(reply, 1) };
  }

  async reveal(pseudonymKeys: readonly string[]): Promise<SharedAnswer<string | undefined>> {
    if (pseudonymKeys.length === 0) return { answers: [], batches: {} };
    const keys = packed(pseudonymKeys);
    const reply = (await shared('vault', () =>
      REVEAL.run(this.client, [this.holders], [this.batches, keys]),
    )) as string[];
    const answers = (reply[0] ?? '').split(',').map((ref) => (ref === '' ? undefined : ref));
    return { answers, batches: batchesAfter(reply, 1) };
  }

  /** Forget every shared mapping (tests; an operator rotating the vault key). */
  async clear(): Promise<void> {
    await shared('vault', async () => {
      const batches = await this.client.keys(`${this.batches}*`);
      await this.client.del(this.holders, ...batches);
    });
  }
}
