/**
 * The Lua of the shared sessions, in one place because the change fan-out writes into sessions
 * too. Every script starts with PRELUDE; ARGV[1] is always the key prefix.
 *
 * Keys (P is the prefix): `P session:<id>` a hash (b binding and principal id, sealed; pid the
 * principal's digest; v version, ci client info, cc client capabilities, ll log level, is
 * initialized, all sealed; in clear for the scripts, i initialized again (worth nothing without
 * is), ttl idle ms, sh the replica holding the stream, dl the last event handed to a stream);
 * `P session:<id>:subs` the subscriptions (digest of the real URI → sealed real and client URI);
 * `P session:<id>:log` the stream's event log (a Redis stream, capped; each entry sealed with
 * its event id); `P sessions` and `P sessions:principal:<digest>` sorted sets of ids by expiry time,
 * which also count the sessions of the deprecated HTTP+SSE transport as `sse:<id>` (renewed by
 * their holder's heartbeat, legacy-sse-scripts.ts), so one cap and one quota hold across both
 * transports; `P replica:<id>` a replica's heartbeat, which is also the channel of its signals. What is
 * sealed is sealed in JavaScript (session-seal.ts): the scripts only move it. Times come from
 * Redis (TIME), so replicas' clocks do not matter here; the log's event ids are the one
 * exception, chosen by the replicas (session-append.ts) because each entry's seal names its id.
 */
export const PRELUDE = `
local P = ARGV[1]
local function nowms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function skey(id) return P .. 'session:' .. id end
local function alive(replica)
  return replica and replica ~= '' and redis.call('EXISTS', P .. 'replica:' .. replica) == 1
end
local function drop(id)
  local k = skey(id)
  local pid = redis.call('HGET', k, 'pid')
  redis.call('DEL', k, k .. ':subs', k .. ':log')
  redis.call('ZREM', P .. 'sessions', id)
  if pid then redis.call('ZREM', P .. 'sessions:principal:' .. pid, id) end
  -- No signal from here: it could not be sealed. The caller seals and sends its ended signal.
end
-- Count member in the cap and in principal pid's quota until now + ttl. The principal's set
-- lives as long as its longest entry: an entry of a shorter life (a legacy SSE session's few
-- heartbeats, a replica with a shorter idle timeout) must not cut the others' short.
local function count(member, pid, now, ttl)
  redis.call('ZADD', P .. 'sessions', now + ttl, member)
  local pk = P .. 'sessions:principal:' .. pid
  redis.call('ZADD', pk, now + ttl, member)
  if redis.call('PTTL', pk) < ttl then redis.call('PEXPIRE', pk, ttl) end
end
local function touch(id, k, now)
  local ttl = tonumber(redis.call('HGET', k, 'ttl'))
  redis.call('PEXPIRE', k, ttl)
  redis.call('PEXPIRE', k .. ':subs', ttl)
  redis.call('PEXPIRE', k .. ':log', ttl)
  count(id, redis.call('HGET', k, 'pid'), now, ttl)
end
-- A session of the deprecated HTTP+SSE transport as the sets count it. Its stream is open for
-- as long as it lives, so it is never the idle session ended to make room.
local function sse(id) return 'sse:' .. id end
local function legacy(member) return string.sub(member, 1, 4) == 'sse:' end
-- Room for one more session of principal pid (either transport), as one replica's SessionStore
-- admits: at the quota, the principal's least recently used 2025 session without a live stream is
-- ended, but only once the cap is known to leave room (counting that session as gone), so a
-- session is never ended for a new one that is then refused. 'ok' and the session ended ('' for
-- none), or 'quota' / 'full'.
local function admit(pid, maxSessions, maxPerPrincipal, now)
  local all, pk = P .. 'sessions', P .. 'sessions:principal:' .. pid
  redis.call('ZREMRANGEBYSCORE', all, '-inf', now)
  redis.call('ZREMRANGEBYSCORE', pk, '-inf', now)
  local victim = nil
  if redis.call('ZCARD', pk) >= maxPerPrincipal then
    for _, other in ipairs(redis.call('ZRANGE', pk, 0, -1)) do
      if not legacy(other) and not alive(redis.call('HGET', skey(other), 'sh')) then victim = other break end
    end
    if not victim then return 'quota', '' end
  end
  local taken = redis.call('ZCARD', all)
  if victim and redis.call('ZSCORE', all, victim) then taken = taken - 1 end
  if taken >= maxSessions then return 'full', '' end
  if victim then drop(victim) end
  return 'ok', victim or ''
end
-- Log a sealed message of the session's stream under event id eid and route it to the replica
-- holding the stream. The id is sealed into the message, so the replica chooses it, not Redis:
-- true once logged, or false and the log's last id when eid does not come after it (another
-- replica logged meanwhile; the caller seals again after that id).
local function push(id, k, eid, sealed, maxlen)
  local log = k .. ':log'
  local added = redis.pcall('XADD', log, 'MAXLEN', maxlen, eid, 'm', sealed)
  if type(added) == 'table' and added.err then
    local info = redis.call('XINFO', 'STREAM', log)
    for i = 1, #info, 2 do
      if info[i] == 'last-generated-id' then return false, info[i + 1] end
    end
    return false, '0-0'
  end
  redis.call('PEXPIRE', log, tonumber(redis.call('HGET', k, 'ttl')))
  local holder = redis.call('HGET', k, 'sh')
  if alive(holder) then
    redis.call('HSET', k, 'dl', eid)
    redis.call('PUBLISH', P .. 'replica:' .. holder, cjson.encode({e = eid, s = id, m = sealed}))
  end
  return true
end
`;

/** Events a session's log keeps for resumption (the in-process outbox keeps as many). */
export const LOG_LENGTH = 1024;
