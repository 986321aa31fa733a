/** The scripts of RedisSessionStore (see session-lua.ts for the keys). */

import { LuaScript } from './script.js';
import { PRELUDE } from './session-lua.js';

// ARGV: P, id, principal digest, sealed binding, maxSessions, maxPerPrincipal, ttl, sealed log
// level. Admitted as PRELUDE's admit says (the legacy SSE sessions count too):
// {'ok', ended id or ''} or {'quota'} / {'full'}.
export const OPEN = new LuaScript(`${PRELUDE}
local now = nowms()
local id, pid = ARGV[2], ARGV[3]
local admission, victim = admit(pid, tonumber(ARGV[5]), tonumber(ARGV[6]), now)
if admission ~= 'ok' then return {admission} end
local k = skey(id)
redis.call('HSET', k, 'b', ARGV[4], 'pid', pid, 'i', '0', 'll', ARGV[8], 'ttl', ARGV[7])
touch(id, k, now)
return {'ok', victim}
`);

// ARGV: P, id. The hash and the subscriptions, expiry pushed back; nil when gone.
export const LOAD = new LuaScript(`${PRELUDE}
local k = skey(ARGV[2])
local fields = redis.call('HGETALL', k)
if #fields == 0 then return false end
touch(ARGV[2], k, nowms())
return {fields, redis.call('HGETALL', k .. ':subs')}
`);

// ARGV: P, id, fields (JSON object), subscribed (JSON object: digest → sealed URIs),
// unsubscribed (JSON list of digests).
export const UPDATE = new LuaScript(`${PRELUDE}
local k = skey(ARGV[2])
if redis.call('EXISTS', k) == 0 then return 0 end
for field, value in pairs(cjson.decode(ARGV[3])) do redis.call('HSET', k, field, value) end
for digest, sealed in pairs(cjson.decode(ARGV[4])) do redis.call('HSET', k .. ':subs', digest, sealed) end
for _, digest in ipairs(cjson.decode(ARGV[5])) do redis.call('HDEL', k .. ':subs', digest) end
redis.call('PEXPIRE', k .. ':subs', tonumber(redis.call('HGET', k, 'ttl')))
return 1
`);

// ARGV: P, id. 1 when there was a session to end.
export const DELETE = new LuaScript(`${PRELUDE}
if redis.call('EXISTS', skey(ARGV[2])) == 0 then return 0 end
drop(ARGV[2])
return 1
`);

// ARGV: P, id, replica, heartbeat ttl, after ('' for "what no stream was handed").
// {1, tail, entries} held here now, with the entries after `after` (marked handed over) and the
// log's newest id; {0} a live replica holds it; {-1} no such session. One step, so every event
// after the tail is routed here and none falls between the replay and the routing. The
// claimant is alive: its heartbeat is renewed too (after a Redis that lost its data, a claim
// must not wait for the next beat to count).
export const CLAIM = new LuaScript(`${PRELUDE}
local k = skey(ARGV[2])
if redis.call('EXISTS', k) == 0 then return {-1} end
local holder = redis.call('HGET', k, 'sh')
if holder and holder ~= ARGV[3] and alive(holder) then return {0} end
redis.call('HSET', k, 'sh', ARGV[3])
redis.call('SET', P .. 'replica:' .. ARGV[3], '1', 'PX', ARGV[4])
local after = ARGV[5]
if after == '' then after = redis.call('HGET', k, 'dl') or '0-0' end
local entries = redis.call('XRANGE', k .. ':log', '(' .. after, '+')
local tail = redis.call('XREVRANGE', k .. ':log', '+', '-', 'COUNT', 1)
local newest = '0-0'
if #tail > 0 then
  newest = tail[1][1]
  redis.call('HSET', k, 'dl', newest)
end
return {1, newest, entries}
`);

// ARGV: P, id, replica.
export const RELEASE = new LuaScript(`${PRELUDE}
local k = skey(ARGV[2])
if redis.call('HGET', k, 'sh') == ARGV[3] then redis.call('HDEL', k, 'sh') end
return 1
`);

// ARGV: P, log length, '1' to log only into initialized sessions (a change notification) or
// '0', then triples of session id, event id and sealed message, in order. One answer per
// triple: '' the session is gone (or not initialized), '=' logged, or else the log's last id,
// which the event id did not come after (and every later entry of that session in this call).
export const APPEND = new LuaScript(`${PRELUDE}
-- A session whose entry was refused refuses its later ones too, so they keep their order.
local out, refused = {}, {}
for i = 4, #ARGV, 3 do
  local id = ARGV[i]
  local k = skey(id)
  local live
  if ARGV[3] == '1' then live = redis.call('HGET', k, 'i') == '1' else live = redis.call('EXISTS', k) == 1 end
  if not live then
    out[#out + 1] = ''
  elseif refused[id] then
    out[#out + 1] = refused[id]
  else
    local ok, last = push(id, k, ARGV[i + 1], ARGV[i + 2], ARGV[2])
    if not ok then refused[id] = last end
    out[#out + 1] = ok and '=' or last
  end
end
return out
`);

// ARGV: P, id, after. The entries after `after`, marked handed over.
export const REPLAY = new LuaScript(`${PRELUDE}
local k = skey(ARGV[2])
local entries = redis.call('XRANGE', k .. ':log', '(' .. ARGV[3], '+')
if #entries > 0 and redis.call('EXISTS', k) == 1 then redis.call('HSET', k, 'dl', entries[#entries][1]) end
return entries
`);

// ARGV: P, replica, heartbeat ttl, ids of the sessions whose stream this replica holds.
// Keeps the replica alive and those sessions from expiring; returns the ids that are gone.
export const HEARTBEAT = new LuaScript(`${PRELUDE}
redis.call('SET', P .. 'replica:' .. ARGV[2], '1', 'PX', ARGV[3])
local now, gone = nowms(), {}
for i = 4, #ARGV do
  local k = skey(ARGV[i])
  if redis.call('EXISTS', k) == 1 then touch(ARGV[i], k, now) else gone[#gone + 1] = ARGV[i] end
end
return gone
`);
