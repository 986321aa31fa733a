/**
 * The pseudonym vault's shared store in Redis: two hashes, one from each value's keyed digest and
 * one from each pseudonym's keyed digest to the mapping's reference (`<batch id>:<index>`), and
 * one string per batch (`vault:batch:<id>`) holding the batch's mappings sealed together. The
 * vault seals before anything reaches this store (see @cloudg/privacy's shared-store.ts), so
 * Redis holds no real value in clear: digests, references and AES-256-GCM records under the
 * vault key.
 *
 * A claim is one Lua script for a batch of new mappings (a vault sends a pass's in parts of 500,
 * the first ones while the pass is still running): the first mapping of a value and the
 * first holder of a pseudonym win, so a collision between replicas is resolved once, by Redis,
 * and every replica adopts the winner. Both hashes hold the very same reference for a mapping,
 * which is how the script tells "already this mapping" from "another one". A reveal is one script
 * for every pseudonym a pass missed. Either answers the batches its references point into, so a
 * strict page of 500 results costs one reveal and a few claims sent without waiting on each other.
 */
import type { MappingRef, SealedBatch, SharedAnswer, SharedClaim, SharedVaultStore } from '@cloudg/privacy';
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

// KEYS: values hash, pseudonyms hash. ARGV: batch key prefix, batch id, sealed batch, then
// pairs of value key and pseudonym key; the n-th pair's reference is `<batch id>:<n>` (0-based),
// which the port fixes, so it is built here rather than sent: a fifth of a cold page's bytes. Returns n answers ('' when the mapping is now,
// or already was, the stored one; else 'v' or 'p' and the holder's reference), then pairs of
// batch id and sealed batch for the holders.
//
// The hashes are read with one HMGET each and written with one HSET each, per chunk of mappings,
// instead of up to four commands per mapping: the first strict page over new values claims
// thousands of mappings at once, and the per-command cost inside the script was most of its time.
// Within a batch, mappings are decided in order as if written one by one (`claimedV`/`claimedP`).
const CLAIM = new LuaScript(`${BATCHES}
local CHUNK = 1000
local answers, holders, stored = {}, {}, false
local claimedV, claimedP = {}, {}
local first = 4
while first <= #ARGV do
  local last = math.min(#ARGV, first + 2 * CHUNK - 1)
  local vfields, pfields = {}, {}
  for i = first, last, 2 do
    vfields[#vfields + 1] = ARGV[i]
    pfields[#pfields + 1] = ARGV[i + 1]
  end
  local byValues = redis.call('HMGET', KEYS[1], unpack(vfields))
  local byPseudonyms = redis.call('HMGET', KEYS[2], unpack(pfields))
  local newV, newP = {}, {}
  for j = 1, #vfields do
    local vfield, pfield = vfields[j], pfields[j]
    local ref = ARGV[2] .. ':' .. ((first - 4) / 2 + j - 1)
    local byValue = claimedV[vfield] or byValues[j]
    local holder = claimedP[pfield] or byPseudonyms[j]
    if byValue then
      if holder == byValue then answers[#answers + 1] = ''
      else answers[#answers + 1] = 'v' .. byValue; holders[#holders + 1] = byValue end
    elseif holder then
      answers[#answers + 1] = 'p' .. holder; holders[#holders + 1] = holder
    else
      claimedV[vfield] = ref
      claimedP[pfield] = ref
      newV[#newV + 1] = vfield; newV[#newV + 1] = ref
      newP[#newP + 1] = pfield; newP[#newP + 1] = ref
      answers[#answers + 1] = ''
      stored = true
    end
  end
  if #newV > 0 then
    redis.call('HSET', KEYS[1], unpack(newV))
    redis.call('HSET', KEYS[2], unpack(newP))
  end
  first = last + 1
end
if stored then redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3]) end
attach(answers, holders, ARGV[1])
return answers
`);

// KEYS: pseudonyms hash. ARGV: batch key prefix, then pseudonym keys. Returns n references ('' for
// none), then pairs of batch id and sealed batch.
const REVEAL = new LuaScript(`${BATCHES}
local refs = {}
for i = 2, #ARGV do refs[#refs + 1] = redis.call('HGET', KEYS[1], ARGV[i]) or '' end
local out = {}
for i, ref in ipairs(refs) do out[i] = ref end
attach(out, refs, ARGV[1])
return out
`);

function batchesAfter(reply: string[], n: number): Record<string, string> {
  const batches: Record<string, string> = {};
  for (let i = n; i + 1 < reply.length; i += 2) batches[reply[i] as string] = reply[i + 1] as string;
  return batches;
}

export class RedisVaultStore implements SharedVaultStore {
  private readonly values: string;
  private readonly pseudonyms: string;
  private readonly batches: string;

  constructor(
    private readonly client: Redis,
    prefix: string,
  ) {
    this.values = `${prefix}vault:values`;
    this.pseudonyms = `${prefix}vault:pseudonyms`;
    this.batches = `${prefix}vault:batch:`;
  }

  async claim(batch: SealedBatch, mappings: readonly MappingRef[]): Promise<SharedAnswer<SharedClaim>> {
    if (mappings.length === 0) return { answers: [], batches: {} };
    const args: string[] = [this.batches, batch.id, batch.sealed];
    mappings.forEach((m, i) => {
      // The script numbers the references itself (see CLAIM); one out of that order is a bug.
      if (m.ref !== `${batch.id}:${i}`)
        throw new Error(`mapping ${i} of batch ${batch.id} has reference ${m.ref}`);
      args.push(m.valueKey, m.pseudonymKey);
    });
    const reply = (await shared('vault', () =>
      CLAIM.run(this.client, [this.values, this.pseudonyms], args),
    )) as string[];
    const answers = reply.slice(0, mappings.length).map((answer): SharedClaim => {
      if (answer === '') return { status: 'ok' };
      return { status: answer[0] === 'v' ? 'value' : 'pseudonym', holder: answer.slice(1) };
    });
    return { answers, batches: batchesAfter(reply, mappings.length) };
  }

  async reveal(pseudonymKeys: readonly string[]): Promise<SharedAnswer<string | undefined>> {
    if (pseudonymKeys.length === 0) return { answers: [], batches: {} };
    const reply = (await shared('vault', () =>
      REVEAL.run(this.client, [this.pseudonyms], [this.batches, ...pseudonymKeys]),
    )) as string[];
    const answers = reply.slice(0, pseudonymKeys.length).map((ref) => (ref === '' ? undefined : ref));
    return { answers, batches: batchesAfter(reply, pseudonymKeys.length) };
  }

  /** Forget every shared mapping (tests; an operator rotating the vault key). */
  async clear(): Promise<void> {
    await shared('vault', async () => {
      const batches = await this.client.keys(`${this.batches}*`);
      await this.client.del(this.values, this.pseudonyms, ...batches);
    });
  }
}
