/**
 * Change fan-out through Redis, for @cloudg/transports' ChangeFanout port. An announcement is
 * heard here at once; then it is published to the other replicas (for their listen streams and
 * local sessions) and the handshake-era notifications are written into every shared session that
 * was initialized, each filtered by that session's own subscriptions (matched by the digest of
 * the real URI, told under the URI the client used), so each session gets each change once
 * whichever replica holds its stream, or keeps it in its log while none does.
 *
 * Everything is sealed with the vault's sealer (`sealWith`, before the first announcement): the
 * change on the channel (a real URI under a pseudonymising policy), and each session's entry,
 * sealed for that session. Redis cannot seal, so it takes two steps: one script publishes the
 * change and names the sessions to tell (with their sealed subscription to the URI), the
 * replica seals their notifications, a second script logs and routes them. A session that
 * ends between the two is skipped by the second.
 *
 * Every change is also numbered and kept (the last `kept`, default 1000) by the first script, so
 * a replica whose pub/sub connection broke reads what it missed once it is back and tells its
 * listeners then, in order (change-replay.ts); past what is kept, its listeners are told that
 * changes were missed (`onMissed`).
 *
 * This is the hook for code that changes something every replica serves (the shared workspace):
 * `announce(kind, uri)` on the replica where the change was made, once. `layer.notifyChange` on
 * that replica does the same, and also reaches the layer's own listeners (the response cache).
 */
import { randomBytes } from 'node:crypto';
import type { ChangeKind, ChangeListener } from '@cloudg/core';
import type { VaultSealer } from '@cloudg/privacy';
import type { ChangeFanout, JsonRpcMessage } from '@cloudg/transports';
import type { Redis } from 'ioredis';
import { ChangeCursor } from './change-replay.js';
import type { ReplicaBus } from './replica-bus.js';
import { LuaScript } from './script.js';
import { appendToLogs, type LogItem } from './session-append.js';
import { LOG_LENGTH, PRELUDE } from './session-lua.js';
import { APPEND } from './session-scripts.js';
import { type SealedChange, SessionSeal, unsealed } from './session-seal.js';

// ARGV: P, sealed change, subscription digest ('' for none), epoch, number, changes kept, '1'
// to start a new epoch. The change was sealed with its epoch and number, so it is taken only
// where it was sealed for: the next number of the epoch in the head, or number 1 of the new epoch
// when the head is missing (Redis started empty) and the replica asks to start one. Then it is
// kept, and published as "<epoch> <number> <sealed>"; the answer is 1 and the initialized live
// sessions, each followed by its sealed subscription under that digest ('' for none). Otherwise
// nothing is written and the answer is {0, epoch, last number} ('' and 0 when there is no head),
// for the replica to seal it again there.
const TARGETS = new LuaScript(`${PRELUDE}
local digest = ARGV[3]
local head, log = P .. 'changes:head', P .. 'changes:log'
local epoch = redis.call('HGET', head, 'e')
local seq = tonumber(ARGV[5])
if not epoch then
  if ARGV[7] ~= '1' or seq ~= 1 then return {0, '', 0} end
  epoch = ARGV[4]
  redis.call('DEL', log)
  redis.call('HSET', head, 'e', epoch, 's', seq)
else
  local last = redis.call('HGET', head, 's')
  if ARGV[7] == '1' or epoch ~= ARGV[4] or (tonumber(last) or -1) + 1 ~= seq then return {0, epoch, last} end
  redis.call('HSET', head, 's', seq)
end
redis.call('ZADD', log, seq, seq .. ' ' .. ARGV[2])
redis.call('ZREMRANGEBYSCORE', log, '-inf', seq - tonumber(ARGV[6]))
redis.call('PUBLISH', P .. 'changes', epoch .. ' ' .. seq .. ' ' .. ARGV[2])
local out = {1}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'sessions', nowms(), '+inf')) do
  local k = skey(id)
  if redis.call('HGET', k, 'i') == '1' then
    out[#out + 1] = id
    out[#out + 1] = (digest ~= '' and redis.call('HGET', k .. ':subs', digest)) or ''
  end
end
return out
`);

/**
 * Rounds of sealing a change again at the head other replicas moved meanwhile (each is one more
 * script) before the announcement is given up and reported through `onError`. Each round one of
 * the replicas announcing at that moment gets its number (a replica numbers its own one at a
 * time), so this many replicas may announce at the same instant.
 */
const ATTEMPTS = 32;

/** Where the next change goes: after `seq` in `epoch` ('' for "start a new epoch"). */
interface Place {
  epoch: string;
  seq: number;
}

const KINDS: ReadonlySet<string> = new Set(['tools', 'prompts', 'resources', 'resource']);
const LISTS: ReadonlySet<string> = new Set(['tools', 'prompts', 'resources']);

/** Changes kept for replicas that reconnect, by default: changes are rare (a dataset loaded). */
export const DEFAULT_CHANGES_KEPT = 1000;

export interface RedisChangeFanoutOptions {
  /** Changes kept in Redis for a replica that lost its pub/sub connection. Default 1000. */
  kept?: number;
}

/** The head a refused announcement was answered with; a damaged head fails the announcement. */
function placeOf(epoch: unknown, seq: unknown): Place {
  const last = Number(seq);
  if (typeof epoch !== 'string' || !Number.isSafeInteger(last) || last < 0)
    throw new Error('Change not announced: the changes head in Redis is damaged');
  return { epoch, seq: last };
}

export class RedisChangeFanout implements ChangeFanout {
  private readonly listeners = new Set<ChangeListener>();
  private readonly missedListeners = new Set<() => void>();
  private sealing: SessionSeal | undefined;
  private readonly kept: number;
  private readonly cursor: ChangeCursor<SealedChange>;
  /** The place of this replica's last announcement (the cursor may not have heard it yet). */
  private announced: Place | undefined;
  /** The numbering of this replica's last announcement, which the next one waits for. */
  private numbering: Promise<unknown> = Promise.resolve();
  private readonly stopBus: () => void;
  /** Told when an announcement could not be spread (it was still heard on this replica). */
  onError: (error: unknown) => void = () => {};

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly bus: ReplicaBus,
    options: RedisChangeFanoutOptions = {},
  ) {
    this.kept = Math.max(1, Math.floor(options.kept ?? DEFAULT_CHANGES_KEPT));
    this.cursor = new ChangeCursor({
      run: (script, keys, args) => script.run(client, keys, args),
      head: `${prefix}changes:head`,
      log: `${prefix}changes:log`,
      // Unsealed, forged, of another vault key or sealed for another place: not a change any
      // replica made there, and the cursor ignores it.
      open: ({ epoch, seq, sealed }) => this.sealing?.openChange(epoch, seq, sealed),
      apply: (change) => {
        // This replica's own were heard when announced.
        if (change.origin === bus.replica || !KINDS.has(change.kind)) return;
        this.hear(change.kind as ChangeKind, change.uri ? change.uri : undefined);
      },
      missed: () => {
        for (const listener of [...this.missedListeners]) listener();
      },
    });
    const stopHearing = bus.on(bus.changes, (text) => this.cursor.heard(text));
    // Whatever was published while the connection was down is read from the log.
    const stopResubscribed = bus.onResubscribed(() => void this.cursor.catchUp());
    this.stopBus = () => {
      stopHearing();
      stopResubscribed();
    };
  }

  /**
   * Settles once this replica hears the channel and knows the last change announced, from which
   * it catches up after a lost connection (createRedisSharedState waits for it).
   */
  async ready(): Promise<void> {
    await this.bus.ready;
    await this.cursor.catchUp();
  }

  /** Seal and open with `sealer` (the policy vault's): required before the first announcement. */
  sealWith(sealer: VaultSealer): void {
    this.sealing = new SessionSeal(sealer);
  }

  private hear(kind: ChangeKind, uri: string | undefined): void {
    for (const listener of [...this.listeners]) listener(kind, uri);
  }

  announce(kind: ChangeKind, uri?: string): void {
    this.hear(kind, uri);
    this.spread(kind, uri).catch((error: unknown) => this.onError(error));
  }

  /** @internal What `announce` does for the other replicas and the shared sessions, awaitable (bench). */
  async spread(kind: ChangeKind, uri: string | undefined): Promise<void> {
    const seal = this.sealing;
    if (!seal) throw unsealed('RedisChangeFanout');
    await this.bus.ready;
    const real = (kind === 'resources' || kind === 'resource') && uri ? uri : undefined;
    const digest = real === undefined ? '' : seal.subscription(real);
    // One announcement of this replica numbered at a time, in the order announced: each then
    // finds the head where the one before left it, and they keep their order on every replica.
    const numbered = this.numbering.then(() => this.number(seal, kind, uri, digest));
    this.numbering = numbered.catch(() => {});
    const found = await numbered;
    const list: JsonRpcMessage | undefined = LISTS.has(kind)
      ? { jsonrpc: '2.0', method: `notifications/${kind}/list_changed` }
      : undefined;
    const deliveries: LogItem[] = [];
    // After the 1, the sessions to tell.
    for (let i = 1; i + 1 < found.length; i += 2) {
      const id = found[i] as string;
      if (list) deliveries.push({ session: id, message: list });
      const sub =
        real === undefined ? undefined : seal.openField<{ r: string; u: string }>(id, found[i + 1] as string);
      if (sub && sub.r === real) {
        const updated = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: sub.u } };
        deliveries.push({ session: id, message: updated as JsonRpcMessage });
      }
    }
    // Each entry is sealed with the event id it gets in its session's log (session-append.ts),
    // into initialized sessions only (a session may end or change between the two scripts).
    if (deliveries.length > 0)
      await appendToLogs(seal, deliveries, LOG_LENGTH, true, (args) =>
        APPEND.run(this.client, [], [this.prefix, ...args]),
      );
  }

  /** Where the next change most likely goes: after this replica's last, or the last it heard. */
  private expectedPlace(): Place {
    const heard = this.cursor.position;
    const own = this.announced;
    if (!heard) return own ?? { epoch: '', seq: 0 };
    if (!own || own.epoch !== heard.epoch) return heard;
    return own.seq > heard.seq ? own : heard;
  }

  /**
   * Number, keep and publish the change (the first script), sealed for the place it takes;
   * sealed again where the head is when another replica announced in between. The sessions to
   * tell, as the script answered them.
   */
  private async number(
    seal: SessionSeal,
    kind: ChangeKind,
    uri: string | undefined,
    digest: string,
  ): Promise<(string | number)[]> {
    let place = this.expectedPlace();
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const fresh = place.epoch === '';
      const epoch = fresh ? randomBytes(8).toString('hex') : place.epoch;
      const seq = fresh ? 1 : place.seq + 1;
      const change = seal.change({ epoch, seq, origin: this.bus.replica, kind, ...(uri ? { uri } : {}) });
      const answer = (await TARGETS.run(
        this.client,
        [],
        [this.prefix, change, digest, epoch, seq, this.kept, fresh ? '1' : '0'],
      )) as (string | number)[];
      if (answer[0] === 1) {
        this.announced = { epoch, seq };
        return answer;
      }
      place = placeOf(answer[1], answer[2]);
    }
    throw new Error(`Change not announced: the head moved ${ATTEMPTS} times while sealing it`);
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onMissed(listener: () => void): () => void {
    this.missedListeners.add(listener);
    return () => this.missedListeners.delete(listener);
  }

  /** Stop hearing the channel (the shared state closes). */
  close(): void {
    this.stopBus();
    this.cursor.close();
  }
}
