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
 *
 * Under a vault TTL (the vault hands a SharedClock), the TTL is one clock for every replica: a
 * sorted set (`vault:used`) keeps each filed mapping's last use over all replicas, by pseudonym
 * key (Redis 7.0 has no expiry per hash field), and a hash (`vault:live`) how many mappings each
 * batch still files. Claims and reveals record their mappings as used in the script they already
 * run; uses a replica made without either ride on a reveal or on the sweep (`touch`), which also
 * drops what no replica used for the TTL. A claim or reveal that meets such a holder drops it
 * first, in the same script, so nothing expired reveals anywhere; a batch goes with its last
 * mapping. Without a clock none of this runs, and the scripts do what they did before.
 */
import type {
  MappingKeys,
  SealedBatch,
  SharedAnswer,
  SharedClaim,
  SharedClock,
  SharedHolder,
  SharedVaultStore,
} from '@cloudg/privacy';
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

// Under a TTL (KEYS[2] the use times, KEYS[3] the batches' counts of mappings filed, ARGV[1] the
// batch key prefix). live() answers a holder's last use ('' when it was filed without a TTL),
// or false when no replica used it for the TTL, dropping it then.
const TIMED = `
local gone = {}
local function drop(key, held)
  gone[key] = true
  redis.call('HDEL', KEYS[1], key)
  redis.call('ZREM', KEYS[2], key)
  local id = string.match(held, '^([^:]+):')
  if id then
    local left = redis.call('HINCRBY', KEYS[3], id, -1)
    if left <= 0 then
      redis.call('HDEL', KEYS[3], id)
      -- A batch filed without a TTL has no count (left is -1 here): it is kept, as before.
      if left == 0 then redis.call('DEL', ARGV[1] .. id) end
    end
  end
end
local function live(key, held, limit)
  local score = redis.call('ZSCORE', KEYS[2], key)
  if score and tonumber(score) < limit then drop(key, held); return false end
  return score or ''
end
-- Set each key's last use (its own time, or at) unless it is later already; with xx, only keys
-- filed with a TTL (a use told late never brings back a dropped mapping).
local function record(packed, at, xx)
  local args = { xx and 'XX' or 'GT' }
  if xx then args[2] = 'GT' end
  local base, n = #args, 0
  local function flush()
    if n > 0 then redis.call('ZADD', KEYS[2], unpack(args, 1, base + n)) end
    n = 0
  end
  for _, pair in ipairs(packed) do
    args[base + n + 1] = pair[2] or at; args[base + n + 2] = pair[1]; n = n + 2
    if n >= 2000 then flush() end
  end
  flush()
end
local function uses(packed)
  local out = {}
  if packed then
    for key, at in string.gmatch(packed, '([^,=]+)=(%d+)') do out[#out + 1] = { key, at } end
  end
  return out
end
local function sweep(limit, max)
  local keys = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. string.format('%.0f', limit), 'LIMIT', 0, max)
  for _, key in ipairs(keys) do
    local held = redis.call('HGET', KEYS[1], key)
    if held then drop(key, held) else redis.call('ZREM', KEYS[2], key) end
  end
  return #keys
end
`;

// KEYS: holders hash. ARGV: batch key prefix, batch id, sealed batch, then the mappings' keys in
// one argument: pseudonym key and value key of each mapping in turn, joined by ','; then,
// optionally, the passed candidates in one argument: `<n>:<pseudonym key>` joined by ','. The n-th
// mapping's reference is `<batch id>:<n>` (0-based), which the port fixes, so it is built here.
// Returns the answers that are not 'ok', packed the same way (`<n>=v<holder>` when the value is
// filed under a passed candidate, `<n>=p<holder>` when another value holds the pseudonym, each
// holder as filed, `<reference> <value key>`, for the vault to check the row against; '' when
// every mapping is now, or already was, filed), then pairs of batch id and sealed batch for the
// holders.
//
// Why so packed: a cold strict page claims about 2,500 mappings. ioredis encodes every argument
// on its own and the reply's every element, so two arguments per mapping cost the client more
// than the rest of the claim; and each hash entry Redis writes costs it a few microseconds, on a
// core it shares with the replica (loopback), so the mappings are filed once, by pseudonym, with
// one HMGET and one HSET per chunk. Within a batch, mappings are decided in order as if written one
// by one (`claimed`).
//
// Under a TTL, ARGV[6] to ARGV[8] are now, the TTL (ms) and each mapping's last use (ms, in order,
// joined by ','; ARGV[5] is then '' when nothing was passed over), and KEYS[2], KEYS[3] those of
// TIMED: a holder no replica used for the TTL is dropped before it is looked at (or again in the
// batch), the mapping each claim ends on is recorded as used when the claimed one was (a
// pseudonym held by another value is not: that value was not used, and its last use is answered
// after '~'), and the batch counts the mappings it files.
const CLAIM = new LuaScript(`${BATCHES}${TIMED}
local function split(held)
  local cut = string.find(held, ' ', 1, true)
  return string.sub(held, 1, cut - 1), string.sub(held, cut + 1)
end
local keys = {}
for key in string.gmatch(ARGV[4], '[^,]+') do keys[#keys + 1] = key end
local n = #keys / 2
local passed = {}
local timed = ARGV[6] ~= nil
local now, limit = ARGV[6], timed and tonumber(ARGV[6]) - tonumber(ARGV[7])
local used, times = {}, {}
if timed then
  for at in string.gmatch(ARGV[8] or '', '[^,]+') do times[#times + 1] = at end
end
if ARGV[5] and ARGV[5] ~= '' then
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
        local other = claimed[probe]
        if not other then
          other = redis.call('HGET', KEYS[1], probe)
          if other and timed and not live(probe, other, limit) then other = nil end
        end
        if other then
          local ref, holderValue = split(other)
          if holderValue == value then
            answer = 'v' .. other
            if timed then used[#used + 1] = { probe, times[i] } end
            break
          end
        end
      end
    end
    if not answer then
      local holder, last = claimed[field], ''
      if not holder then
        holder = held[j]
        if gone[field] then holder = nil end
        if holder and timed then
          last = live(field, holder, limit)
          if not last then holder = nil end
        end
      end
      if holder then
        local ref, holderValue = split(holder)
        if holderValue ~= value then
          answer = 'p' .. holder
          if last ~= '' then answer = answer .. '~' .. last end
        elseif timed then
          used[#used + 1] = { field, times[i] }
        end
      else
        local entry = id .. ':' .. (i - 1) .. ' ' .. value
        claimed[field] = entry
        new[count + 1] = field; new[count + 2] = entry; count = count + 2
        stored = true
        if timed then used[#used + 1] = { field, times[i] } end
      end
    end
    if answer then
      answers[#answers + 1] = (i - 1) .. '=' .. answer
      holders[#holders + 1] = string.sub(answer, 2)
    end
  end
  if count > 0 then
    redis.call('HSET', KEYS[1], unpack(new))
    if timed then redis.call('HINCRBY', KEYS[3], id, count / 2) end
  end
end
if stored then redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3]) end
if timed then record(used, now, false) end
local out = { table.concat(answers, ',') }
attach(out, holders, ARGV[1])
return out
`);

// KEYS: holders hash. ARGV: batch key prefix, then pseudonym keys joined by ','. Returns the
// holders as filed (`<reference> <value key>`, which the vault checks the row against) joined by
// ',' ('' for none), then pairs of batch id and sealed batch. Under a TTL,
// ARGV[3] to ARGV[5] are now, the TTL and the uses to record first (<key>=<ms> joined by ',',
// possibly ''), KEYS[2] and KEYS[3] those of TIMED: a holder no replica used for the TTL is dropped
// and answered '', one answered is recorded as used now.
const REVEAL = new LuaScript(`${BATCHES}${TIMED}
local timed = ARGV[3] ~= nil
local limit = timed and tonumber(ARGV[3]) - tonumber(ARGV[4])
local used = {}
if timed then record(uses(ARGV[5]), nil, true) end
local refs = {}
for key in string.gmatch(ARGV[2], '[^,]+') do
  local held = redis.call('HGET', KEYS[1], key)
  if held and timed and not live(key, held, limit) then held = nil end
  if held and timed then used[#used + 1] = { key } end
  refs[#refs + 1] = held or ''
end
if timed then record(used, ARGV[3], false) end
local out = { table.concat(refs, ',') }
attach(out, refs, ARGV[1])
return out
`);

// KEYS and ARGV[1] as TIMED's; ARGV: now, TTL, the uses to record (as REVEAL's). Records the
// uses, then drops up to SWEPT mappings no replica used for the TTL, the oldest first; returns
// how many it dropped.
const SWEPT = 1000;

// KEYS and ARGV[1] as TIMED's; ARGV[2]: <pseudonym key>=<reference> joined by ','. Unfiles each
// pseudonym key still filed with that reference (another replica's holder is left alone), with
// its use time and its batch's count, as an expired one is dropped.
const WITHDRAW = new LuaScript(`${TIMED}
for key, ref in string.gmatch(ARGV[2], '([^,=]+)=([^,]+)') do
  local held = redis.call('HGET', KEYS[1], key)
  if held and string.sub(held, 1, #ref + 1) == ref .. ' ' then drop(key, held) end
end
return 0
`);

const TOUCH = new LuaScript(`${TIMED}
record(uses(ARGV[4]), nil, true)
return sweep(tonumber(ARGV[2]) - tonumber(ARGV[3]), ${SWEPT})
`);

const OK: SharedClaim = { status: 'ok' };

/** Uses as the scripts read them: `<key>=<Unix ms>` joined by ','. */
function packedUses(clock: SharedClock): string {
  const uses = clock.uses ?? [];
  if (uses.length === 0) return '';
  packed(uses.map((u) => u.key));
  return uses.map((u) => `${u.key}=${Math.round(u.at)}`).join(',');
}

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

/** A holder entry as filed, `<reference> <value key>`. */
function holderOf(held: string): SharedHolder {
  const cut = held.indexOf(' ');
  return { ref: held.slice(0, cut), valueKey: held.slice(cut + 1) };
}

function batchesAfter(reply: string[], n: number): Record<string, string> {
  const batches: Record<string, string> = {};
  for (let i = n; i + 1 < reply.length; i += 2) batches[reply[i] as string] = reply[i + 1] as string;
  return batches;
}

export class RedisVaultStore implements SharedVaultStore {
  private readonly holders: string;
  private readonly batches: string;
  /** Under a TTL: holders hash, last uses, batch counts (TIMED's KEYS). */
  private readonly timedKeys: string[];

  constructor(
    private readonly client: Redis,
    prefix: string,
  ) {
    this.holders = `${prefix}vault:holders`;
    this.batches = `${prefix}vault:batch:`;
    this.timedKeys = [this.holders, `${prefix}vault:used`, `${prefix}vault:live`];
  }

  async claim(
    batch: SealedBatch,
    mappings: readonly MappingKeys[],
    clock?: SharedClock,
  ): Promise<SharedAnswer<SharedClaim>> {
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
    if (clock) {
      if (passed.length === 0) args.push('');
      const now = Math.round(clock.now);
      const times = mappings.map((m) =>
        m.lastUsed === undefined ? now : Math.min(now, Math.round(m.lastUsed)),
      );
      args.push(String(now), String(Math.round(clock.ttlMs)), times.join(','));
    }
    const keysOf = clock ? this.timedKeys : [this.holders];
    const reply = (await shared('vault', () => CLAIM.run(this.client, keysOf, args))) as string[];
    const answers: SharedClaim[] = new Array<SharedClaim>(mappings.length).fill(OK);
    const notTaken = reply[0] ?? '';
    if (notTaken !== '') {
      for (const answer of notTaken.split(',')) {
        const cut = answer.indexOf('=');
        const used = answer.indexOf('~', cut);
        const { ref: holder, valueKey } = holderOf(
          used < 0 ? answer.slice(cut + 2) : answer.slice(cut + 2, used),
        );
        answers[Number(answer.slice(0, cut))] =
          used < 0
            ? { status: answer[cut + 1] === 'v' ? 'value' : 'pseudonym', holder, valueKey }
            : { status: 'pseudonym', holder, valueKey, lastUsed: Number(answer.slice(used + 1)) };
      }
    }
    return { answers, batches: batchesAfter(reply, 1) };
  }

  async reveal(
    pseudonymKeys: readonly string[],
    clock?: SharedClock,
  ): Promise<SharedAnswer<SharedHolder | undefined>> {
    if (pseudonymKeys.length === 0) return { answers: [], batches: {} };
    const keys = packed(pseudonymKeys);
    const args = [this.batches, keys];
    if (clock) args.push(String(Math.round(clock.now)), String(Math.round(clock.ttlMs)), packedUses(clock));
    const keysOf = clock ? this.timedKeys : [this.holders];
    const reply = (await shared('vault', () => REVEAL.run(this.client, keysOf, args))) as string[];
    const answers = (reply[0] ?? '').split(',').map((held) => (held === '' ? undefined : holderOf(held)));
    return { answers, batches: batchesAfter(reply, 1) };
  }

  /**
   * Put the batch sealed again (its losing mappings blanked) in place of the claimed one, only
   * while Redis still keeps it (a batch none of whose mappings took, or one dropped since under a
   * TTL, is not brought back).
   */
  async reseal(batch: SealedBatch): Promise<void> {
    await shared('vault', () => this.client.set(`${this.batches}${batch.id}`, batch.sealed, 'XX'));
  }

  async withdraw(filed: readonly { pseudonymKey: string; ref: string }[]): Promise<void> {
    if (filed.length === 0) return;
    packed(filed.map((f) => f.pseudonymKey));
    if (filed.some((f) => !/^[0-9a-f]+:\d+$/.test(f.ref)))
      throw new Error('a shared vault reference is malformed');
    const pairs = filed.map((f) => `${f.pseudonymKey}=${f.ref}`).join(',');
    await shared('vault', () => WITHDRAW.run(this.client, this.timedKeys, [this.batches, pairs]));
  }

  /** Record uses and drop up to 1,000 mappings no replica used for the TTL (see TOUCH). */
  async touch(clock: SharedClock): Promise<number> {
    const args = [
      this.batches,
      String(Math.round(clock.now)),
      String(Math.round(clock.ttlMs)),
      packedUses(clock),
    ];
    return (await shared('vault', () => TOUCH.run(this.client, this.timedKeys, args))) as number;
  }

  /** Forget every shared mapping (tests; an operator rotating the vault key). */
  async clear(): Promise<void> {
    await shared('vault', async () => {
      const batches = await this.client.keys(`${this.batches}*`);
      await this.client.del(...this.timedKeys, ...batches);
    });
  }
}
