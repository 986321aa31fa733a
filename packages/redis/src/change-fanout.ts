/**
 * Change fan-out through Redis, for @cloudg/transports' ChangeFanout port. An announcement is
 * heard here at once; one script then publishes it to the other replicas (for their listen
 * streams and local sessions) and writes the handshake-era notifications into every shared
 * session that was initialized, each filtered by that session's own subscriptions (matched by
 * the real URI, written under the URI the client used), so each session gets each change once
 * whichever replica holds its stream, or keeps it in its log while none does.
 *
 * This is the hook for code that changes something every replica serves (the shared workspace):
 * `announce(kind, uri)` on the replica where the change was made, once. `layer.notifyChange` on
 * that replica does the same, and also reaches the layer's own listeners (the response cache).
 */
import type { ChangeKind, ChangeListener } from '@cloudg/core';
import type { ChangeFanout } from '@cloudg/transports';
import type { Redis } from 'ioredis';
import type { ReplicaBus } from './replica-bus.js';
import { LuaScript } from './script.js';
import { LOG_LENGTH, PRELUDE } from './session-lua.js';

// ARGV: P, origin replica, kind, uri ('' for none), log length.
const ANNOUNCE = new LuaScript(`${PRELUDE}
local kind, uri, maxlen = ARGV[3], ARGV[4], ARGV[5]
redis.call('PUBLISH', P .. 'changes', cjson.encode({origin = ARGV[2], kind = kind, uri = uri}))
local lists = {}
if kind == 'tools' or kind == 'prompts' or kind == 'resources' then
  lists[1] = '{"jsonrpc":"2.0","method":"notifications/' .. kind .. '/list_changed"}'
end
local real = nil
if (kind == 'resources' or kind == 'resource') and uri ~= '' then real = uri end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'sessions', nowms(), '+inf')) do
  local k = skey(id)
  if redis.call('HGET', k, 'i') == '1' then
    for _, message in ipairs(lists) do push(id, k, message, maxlen) end
    local client = real and redis.call('HGET', k .. ':subs', real)
    if client then
      push(id, k, '{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":' ..
        cjson.encode(client) .. '}}', maxlen)
    end
  end
end
return 1
`);

const KINDS: ReadonlySet<string> = new Set(['tools', 'prompts', 'resources', 'resource']);

export class RedisChangeFanout implements ChangeFanout {
  private readonly listeners = new Set<ChangeListener>();
  /** Told when an announcement could not be spread (it was still heard on this replica). */
  onError: (error: unknown) => void = () => {};

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly bus: ReplicaBus,
  ) {
    bus.on(bus.changes, (text) => {
      const change = JSON.parse(text) as { origin?: string; kind?: string; uri?: string };
      if (change.origin === bus.replica || !change.kind || !KINDS.has(change.kind)) return;
      this.hear(change.kind as ChangeKind, change.uri ? change.uri : undefined);
    });
  }

  private hear(kind: ChangeKind, uri: string | undefined): void {
    for (const listener of [...this.listeners]) listener(kind, uri);
  }

  announce(kind: ChangeKind, uri?: string): void {
    this.hear(kind, uri);
    this.bus.ready
      .then(() => ANNOUNCE.run(this.client, [], [this.prefix, this.bus.replica, kind, uri ?? '', LOG_LENGTH]))
      .catch((error: unknown) => this.onError(error));
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
