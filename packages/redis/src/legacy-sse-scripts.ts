/**
 * The scripts of RedisLegacySseRelay (see legacy-sse-relay.ts for the record's fields). A session
 * of the deprecated HTTP+SSE transport also counts in the shared session cap and quota, the 2025
 * sessions' sorted sets (session-lua.ts), as `sse:<id>`: admitted by the same rule, kept there by
 * its holder's heartbeat like its record, and removed with it.
 */
import { LuaScript } from './script.js';
import { PRELUDE } from './session-lua.js';

// ARGV: P, replica, ttl, id, sealed binding, principal digest, maxSessions, maxPerPrincipal.
// Room for the session as for a 2025 one, then its record and its place in the count, both
// living ttl unless renewed: {'ok', the 2025 session ended to make room or ''}, or {'quota'} /
// {'full'} with nothing written.
export const HOLD = new LuaScript(`${PRELUDE}
local replica, ttl, id, pid = ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[6]
local now = nowms()
local admission, victim = admit(pid, tonumber(ARGV[7]), tonumber(ARGV[8]), now)
if admission ~= 'ok' then return {admission} end
local k = P .. 'legacy-sse:' .. id
redis.call('HSET', k, 'h', replica, 'b', ARGV[5], 'p', pid)
redis.call('PEXPIRE', k, ttl)
count(sse(id), pid, now, ttl)
return {'ok', victim}
`);

// ARGV: P, replica, ttl, then id, sealed binding and principal digest for each session held.
// Writes each record whole and counts the session again, so one lost with Redis's data comes
// back (counted even past the quota: the session is open, and is not ended for it).
export const RENEW = new LuaScript(`${PRELUDE}
local replica, ttl = ARGV[2], tonumber(ARGV[3])
local now = nowms()
for i = 4, #ARGV, 3 do
  local k = P .. 'legacy-sse:' .. ARGV[i]
  redis.call('HSET', k, 'h', replica, 'b', ARGV[i + 1], 'p', ARGV[i + 2])
  redis.call('PEXPIRE', k, ttl)
  count(sse(ARGV[i]), ARGV[i + 2], now, ttl)
end
return 1
`);

// ARGV: P, id. {holder, sealed binding} while the holder's heartbeat (`P replica:<id>`, the key
// the 2025 sessions' stream claims rely on) lives; nil otherwise.
export const LOCATE = new LuaScript(`
local found = redis.call('HMGET', ARGV[1] .. 'legacy-sse:' .. ARGV[2], 'h', 'b')
if not found[1] or not found[2] then return false end
if redis.call('EXISTS', ARGV[1] .. 'replica:' .. found[1]) == 0 then return false end
return found
`);

// ARGV: P, replica, then id and principal digest ('' when this replica does not hold it) for
// each session. Only this replica's own records go, with their place in the count; one whose
// record is already gone (expired, or Redis lost it) leaves the count too when this replica
// holds it. The digest given is this replica's; the record's clear one is used only without it.
export const RELEASE = new LuaScript(`${PRELUDE}
local replica = ARGV[2]
for i = 3, #ARGV, 2 do
  local id, pid = ARGV[i], ARGV[i + 1]
  local k = P .. 'legacy-sse:' .. id
  local holder = redis.call('HGET', k, 'h')
  if holder == replica or (not holder and pid ~= '') then
    if pid == '' then pid = redis.call('HGET', k, 'p') or '' end
    redis.call('DEL', k)
    redis.call('ZREM', P .. 'sessions', sse(id))
    if pid ~= '' then redis.call('ZREM', P .. 'sessions:principal:' .. pid, sse(id)) end
  end
end
return 1
`);
