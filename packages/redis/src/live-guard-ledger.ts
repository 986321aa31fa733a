/**
 * The live operation guard's shared ledger in Redis (the catalog's `LiveGuardLedger` port; this
 * package does not import the catalog, so the types are its own and match the port's shape).
 * Under `<prefix>live:`:
 *
 * - `flights`: a hash from each admitted flight to `token|expiry ms|scope,scope...`. An entry
 *   whose expiry has passed no longer counts (its replica stopped renewing it: it died) and is
 *   dropped by the next admission.
 * - `finished`: a hash from each scope to when its last flight ended (the cooldowns).
 * - `starts:<caller>`: a sorted set of the caller's starts inside the quota window.
 * - `result:<flight>:<token>`: the finished flight's result for callers that joined it from
 *   other replicas, sealed, for a minute.
 *
 * Flights, scopes and callers are named by keyed digests of the vault key (`VaultSealer.lookup`):
 * a scope can hold an account id, which Redis must not hold in clear. Every admission is one
 * script, so replicas never both admit past a cap, and times come from the guard's clock, which
 * every replica must agree on (NTP), as for the shared rate limits.
 */
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import { LuaScript } from './script.js';

// KEYS: flights, finished, starts. ARGV: flight, token, now, leaseMs, maxPerScope, maxTotal,
// force (1/0), callerMax, windowMs, n, then n pairs of (scope, cooldownMs).
// Returns {'ok', token} | {'running', token} | {'busy', indexes, total} | {'cooldown', indexes, waitMs} | {'quota', '', waitMs}.
const ADMIT = new LuaScript(`
local now = tonumber(ARGV[3])
local flights = redis.call('HGETALL', KEYS[1])
local active, total = {}, 0
for i = 1, #flights, 2 do
  local token, expiry, scopes = string.match(flights[i + 1], '^([^|]*)|([^|]*)|(.*)$')
  if tonumber(expiry) <= now then
    redis.call('HDEL', KEYS[1], flights[i])
  elseif flights[i] == ARGV[1] then
    return {'running', token}
  else
    total = total + 1
    for s in string.gmatch(scopes, '[^,]+') do active[s] = (active[s] or 0) + 1 end
  end
end
local n = tonumber(ARGV[10])
local busy = {}
for i = 1, n do
  if (active[ARGV[9 + 2 * i]] or 0) >= tonumber(ARGV[5]) then busy[#busy + 1] = tostring(i - 1) end
end
if #busy > 0 then return {'busy', table.concat(busy, ','), total} end
if total >= tonumber(ARGV[6]) then return {'busy', '', total} end
if ARGV[7] == '0' then
  local wait, cooling = 0, {}
  for i = 1, n do
    local last = redis.call('HGET', KEYS[2], ARGV[9 + 2 * i])
    if last then
      local left = tonumber(last) + tonumber(ARGV[10 + 2 * i]) - now
      if left > 0 then
        cooling[#cooling + 1] = tostring(i - 1)
        if left > wait then wait = left end
      end
    end
  end
  if #cooling > 0 then return {'cooldown', table.concat(cooling, ','), wait} end
end
local max = tonumber(ARGV[8])
if max > 0 then
  local window = tonumber(ARGV[9])
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
  if redis.call('ZCARD', KEYS[3]) >= max then
    local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
    return {'quota', '', tonumber(oldest[2]) + window - now}
  end
  redis.call('ZADD', KEYS[3], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[3], window)
end
local scopes = {}
for i = 1, n do scopes[i] = ARGV[9 + 2 * i] end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. string.format('%d', now + tonumber(ARGV[4])) .. '|' .. table.concat(scopes, ','))
return {'ok', ARGV[2]}
`);

// KEYS: flights. ARGV: flight, token, new expiry. 1 when the claim was still this token's.
const RENEW = new LuaScript(`
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if not entry then return 0 end
local token, expiry, scopes = string.match(entry, '^([^|]*)|([^|]*)|(.*)$')
if token ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], token .. '|' .. ARGV[3] .. '|' .. scopes)
return 1
`);

// KEYS: flights, finished, result. ARGV: flight, token, now, sealed result ('' for none), then scopes.
const FINISH = new LuaScript(`
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if entry and string.match(entry, '^([^|]*)|') == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
for i = 5, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], ARGV[3]) end
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4], 'PX', 60000) end
return 1
`);

/** The catalog's LedgerClaim, as this package sees it. */
export interface LiveLedgerClaim {
  flight: string;
  scopes: readonly string[];
  cooldownMs: readonly number[];
  caller: string;
  force: boolean;
  now: number;
  maxPerScope: number;
  maxTotal: number;
  callerMax: number;
  callerWindowMs: number;
  leaseMs: number;
}

export type LiveLedgerAdmission =
  | { admitted: true; token: string }
  | { admitted: false; reason: 'running'; token: string }
  | { admitted: false; reason: 'busy'; scopes: string[]; total: number }
  | { admitted: false; reason: 'cooldown'; scopes: string[]; waitMs: number }
  | { admitted: false; reason: 'quota'; waitMs: number };

/** The catalog's LedgerSnapshot, as this package sees it. */
export interface LiveLedgerSnapshot {
  activeTotal: number;
  activeByScope: Record<string, number>;
  otherScopesActive: number;
  finishedAt: Record<string, number>;
  otherFinishedAt: number[];
}

export interface RedisLiveGuardLedgerOptions {
  /** The guard's clock (ms), to tell an expired claim while waiting for it. Default Date.now. */
  now?: () => number;
  /** How often a caller that joined a flight of another replica looks for its end (ms). Default 100. */
  pollMs?: number;
}

const STATE = 'live_guard';
const LABEL = 'live-result';

export class RedisLiveGuardLedger {
  readonly #client: Redis;
  readonly #sealer: VaultSealer;
  readonly #prefix: string;
  readonly #now: () => number;
  readonly #pollMs: number;

  constructor(client: Redis, prefix: string, sealer: VaultSealer, options: RedisLiveGuardLedgerOptions = {}) {
    this.#client = client;
    this.#sealer = sealer;
    this.#prefix = `${prefix}live:`;
    this.#now = options.now ?? Date.now;
    this.#pollMs = options.pollMs ?? 100;
  }

  /** A keyed digest: names a flight, scope or caller without holding it. */
  #key(text: string): string {
    return this.#sealer.lookup(text).slice(0, 32);
  }

  async admit(claim: LiveLedgerClaim): Promise<LiveLedgerAdmission> {
    const token = `${process.pid.toString(36)}${Math.random().toString(36).slice(2, 12)}`;
    const args: (string | number)[] = [
      this.#key(claim.flight),
      token,
      Math.floor(claim.now),
      Math.ceil(claim.leaseMs),
      claim.maxPerScope,
      claim.maxTotal,
      claim.force ? 1 : 0,
      claim.callerMax,
      Math.ceil(claim.callerWindowMs),
      claim.scopes.length,
    ];
    claim.scopes.forEach((scope, i) => {
      args.push(this.#key(scope), Math.ceil(claim.cooldownMs[i] ?? 0));
    });
    const keys = [
      `${this.#prefix}flights`,
      `${this.#prefix}finished`,
      `${this.#prefix}starts:${this.#key(claim.caller)}`,
    ];
    const [status, detail, figure] = (await shared(STATE, () => ADMIT.run(this.#client, keys, args))) as [
      string,
      string,
      number | undefined,
    ];
    const named = (indexes: string) =>
      indexes === '' ? [] : indexes.split(',').map((i) => claim.scopes[Number(i)] as string);
    switch (status) {
      case 'ok':
        return { admitted: true, token: detail };
      case 'running':
        return { admitted: false, reason: 'running', token: detail };
      case 'busy':
        return { admitted: false, reason: 'busy', scopes: named(detail), total: Number(figure) };
      case 'cooldown':
        return { admitted: false, reason: 'cooldown', scopes: named(detail), waitMs: Number(figure) };
      default:
        return { admitted: false, reason: 'quota', waitMs: Number(figure) };
    }
  }

  async renew(flight: string, token: string, now: number, leaseMs: number): Promise<boolean> {
    const renewed = await shared(STATE, () =>
      RENEW.run(
        this.#client,
        [`${this.#prefix}flights`],
        [this.#key(flight), token, Math.floor(now + leaseMs)],
      ),
    );
    return renewed === 1;
  }

  async finish(
    flight: string,
    token: string,
    scopes: readonly string[],
    now: number,
    result?: string,
  ): Promise<void> {
    const key = this.#key(flight);
    const sealed = result === undefined ? '' : this.#sealer.seal(result, LABEL);
    await shared(STATE, () =>
      FINISH.run(
        this.#client,
        [`${this.#prefix}flights`, `${this.#prefix}finished`, `${this.#prefix}result:${key}:${token}`],
        [key, token, Math.floor(now), sealed, ...scopes.map((s) => this.#key(s))],
      ),
    );
  }

  /**
   * Every replica's live flights and the scopes' last ends, read in one round trip. Scopes are
   * digests here: those of `scopes` (the ones the caller can name) are named, the rest counted.
   */
  async snapshot(scopes: readonly string[], now: number): Promise<LiveLedgerSnapshot> {
    const [flights, finished] = await shared(STATE, async () => {
      const answers = await this.#client
        .multi()
        .hgetall(`${this.#prefix}flights`)
        .hgetall(`${this.#prefix}finished`)
        .exec();
      return (answers ?? []).map(([, value]) => (value ?? {}) as Record<string, string>);
    });
    const names = new Map(scopes.map((scope) => [this.#key(scope), scope]));
    const out: LiveLedgerSnapshot = {
      activeTotal: 0,
      activeByScope: {},
      otherScopesActive: 0,
      finishedAt: {},
      otherFinishedAt: [],
    };
    const others = new Set<string>();
    for (const entry of Object.values(flights ?? {})) {
      const [, expiry, held = ''] = entry.split('|');
      // A claim past its expiry belongs to a replica that died: it no longer counts.
      if (Number(expiry) <= now) continue;
      out.activeTotal += 1;
      for (const digest of held.split(',').filter(Boolean)) {
        const scope = names.get(digest);
        if (scope === undefined) others.add(digest);
        else out.activeByScope[scope] = (out.activeByScope[scope] ?? 0) + 1;
      }
    }
    out.otherScopesActive = others.size;
    for (const [digest, at] of Object.entries(finished ?? {})) {
      const scope = names.get(digest);
      if (scope === undefined) out.otherFinishedAt.push(Number(at));
      else out.finishedAt[scope] = Number(at);
    }
    return out;
  }

  async awaitResult(flight: string, token: string, signal: AbortSignal): Promise<string | undefined> {
    const key = this.#key(flight);
    for (;;) {
      signal.throwIfAborted();
      const [result, entry] = await shared(STATE, async () => {
        const answers = await this.#client
          .multi()
          .get(`${this.#prefix}result:${key}:${token}`)
          .hget(`${this.#prefix}flights`, key)
          .exec();
        return (answers ?? []).map(([, value]) => value as string | null);
      });
      if (result) return this.#sealer.open(result, LABEL);
      const [holder, expiry] = (entry ?? '').split('|');
      // Ended without a result (failed, cancelled), or its replica died and the claim expired.
      if (holder !== token || Number(expiry) <= this.#now()) return undefined;
      await pause(this.#pollMs, signal);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
