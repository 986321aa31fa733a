/**
 * Handshake-era sessions in Redis, for @cloudg/transports' SharedSessionStore port: the state a
 * session needs to continue on another replica, the per-principal quota counted across replicas,
 * the stream's event log for `Last-Event-ID`, and the routing of stream messages and signals
 * through pub/sub. Each operation is one script (session-scripts.ts), so it is atomic and one
 * round trip; the consistency model is the port's. A replica proves it is alive by a heartbeat
 * key (three beats long): a stream claim or quota exemption of a replica that died lapses with
 * it, and its sessions expire `idleMs` after its last beat.
 *
 * Nothing of a session is in Redis in clear, and nothing written there without the vault key is
 * taken for a session's: its binding, client details, subscriptions, log entries and the signals
 * between replicas are sealed with the vault's sealer (session-seal.ts), given by `sealWith`
 * before the first request; until then every operation refuses. What is sealed cannot be
 * replayed elsewhere either: log entries name their event id (session-append.ts), signals are
 * taken once and only while fresh (session-freshness.ts), and `initialized`, which the scripts
 * read in clear, counts only when its sealed twin says so too.
 */
import type { LogLevel } from '@cloudg/core';
import type { VaultSealer } from '@cloudg/privacy';
import type {
  JsonRpcMessage,
  SharedSessionAdmission,
  SharedSessionChange,
  SharedSessionClaim,
  SharedSessionEvent,
  SharedSessionLimits,
  SharedSessionSignal,
  SharedSessionState,
  SharedSessionStore,
} from '@cloudg/transports';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import type { ReplicaBus } from './replica-bus.js';
import type { LuaScript } from './script.js';
import { appendToLogs, isStreamId } from './session-append.js';
import { SignalFreshness } from './session-freshness.js';
import { LOG_LENGTH } from './session-lua.js';
import { APPEND, CLAIM, DELETE, HEARTBEAT, LOAD, OPEN, RELEASE, REPLAY, UPDATE } from './session-scripts.js';
import { SessionSeal, unsealed } from './session-seal.js';

const STATE = 'sessions';

/** Sessions whose proof of `initialized` a replica keeps (see `initializedSeals`). */
const INITIALIZED_PROOFS = 10_000;

function pairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i] as string] = flat[i + 1] as string;
  return out;
}

/**
 * Log entries of session `id` as events; an entry that is not the session's own, or not sealed
 * for the place it is at (copied from elsewhere in the log), is skipped.
 */
function events(seal: SessionSeal, id: string, entries: [string, string[]][]): SharedSessionEvent[] {
  const out: SharedSessionEvent[] = [];
  for (const [eventId, fields] of entries) {
    const sealed = pairs(fields).m;
    const message = sealed === undefined ? undefined : seal.openEntry(id, eventId, sealed);
    if (message !== undefined) out.push({ id: eventId, message });
  }
  return out;
}

/** The binding and principal, sealed together in field `b`. */
interface Owner {
  b: string;
  p: string;
}

export interface RedisSessionStoreOptions {
  /** How often this replica proves it is alive and keeps its streamed sessions. Default 2000 ms. */
  heartbeatMs?: number;
  /**
   * How old a signal from another replica may be and still be taken (its send time, on the
   * sender's clock, against this replica's). Default 30 000 ms (SIGNAL_MAX_AGE_MS).
   */
  signalMaxAgeMs?: number;
}

export class RedisSessionStore implements SharedSessionStore {
  readonly replica: string;
  private readonly held = new Set<string>();
  private readonly listeners = new Set<(signal: SharedSessionSignal) => void>();
  private readonly heartbeatMs: number;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private sealing: SessionSeal | undefined;
  private readonly freshness: SignalFreshness;
  /**
   * Session → its sealed `is` once proven true: it is written once per session, so each
   * request compares it instead of opening it again (a seal opened costs some 20 µs). Only that
   * exact text counts, so a copy from another session still has to open, and fails.
   */
  private readonly initializedSeals = new Map<string, string>();

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly bus: ReplicaBus,
    options: RedisSessionStoreOptions = {},
  ) {
    this.replica = bus.replica;
    this.heartbeatMs = options.heartbeatMs ?? 2000;
    this.freshness = new SignalFreshness(options.signalMaxAgeMs);
    const hear = (text: string) => {
      const signal = this.heard(text);
      if (signal) for (const listener of [...this.listeners]) listener(signal);
    };
    bus.on(bus.direct, hear);
    bus.on(bus.broadcast, hear);
    bus.onResubscribed(() => {
      for (const listener of [...this.listeners]) listener({ type: 'resync' });
    });
  }

  /** Seal and open with `sealer` (the policy vault's): required before the first request. */
  sealWith(sealer: VaultSealer): void {
    this.sealing = new SessionSeal(sealer);
  }

  private get seal(): SessionSeal {
    if (!this.sealing) throw unsealed('RedisSessionStore');
    return this.sealing;
  }

  /**
   * A signal heard on the bus, once proven: a sealed signal, fresh and heard for the first time
   * (a cancellation then carries when it was sent, for the receiver to compare with the
   * request's start), or an event whose entry is sealed for the session and the event id it
   * names. Anything else (forged, damaged, another vault key, replayed) is dropped. An event
   * needs no freshness of its own: the stream holding it writes each event id once, in order.
   */
  private heard(text: string): SharedSessionSignal | undefined {
    if (!this.sealing) return undefined;
    let body: { x?: unknown; e?: unknown; s?: unknown; m?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return undefined;
    }
    if (typeof body.x === 'string') {
      const opened = this.sealing.openSignal(body.x);
      if (!opened || opened.signal.type === 'resync' || opened.signal.type === 'event') return undefined;
      if (!this.freshness.accept(opened.sentAt, opened.nonce)) return undefined;
      const { signal, sentAt } = opened;
      return signal.type === 'cancel' ? { ...signal, sentAt } : signal;
    }
    if (
      typeof body.e !== 'string' ||
      !isStreamId(body.e) ||
      typeof body.s !== 'string' ||
      typeof body.m !== 'string'
    )
      return undefined;
    const message = this.sealing.openEntry(body.s, body.e, body.m);
    return message === undefined
      ? undefined
      : { type: 'event', session: body.s, event: { id: body.e, message } };
  }

  private ended(session: string): Promise<void> {
    return this.signal(undefined, { type: 'ended', session });
  }

  private run(script: LuaScript, args: (string | number)[]): Promise<unknown> {
    if (!this.sealing) return Promise.reject(unsealed('RedisSessionStore'));
    return shared(STATE, async () => {
      await this.bus.ready;
      await this.alive();
      return script.run(this.client, [], [this.prefix, ...args]);
    });
  }

  /** The first beat before anything else: a claim is only as good as the claimant's heartbeat. */
  private alive(): Promise<void> {
    if (!this.beating) {
      this.beating = this.beat();
      this.timer = setInterval(() => {
        this.beat().catch(() => {});
      }, this.heartbeatMs);
      this.timer.unref();
      // Started again on the next operation when the first beat failed.
      this.beating.catch(() => {
        this.stopBeating();
      });
    }
    return this.beating;
  }

  private stopBeating(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.beating = undefined;
  }

  private async beat(): Promise<void> {
    const gone = (await HEARTBEAT.run(
      this.client,
      [],
      [this.prefix, this.replica, this.heartbeatMs * 3, ...this.held],
    )) as string[];
    for (const session of gone) {
      this.held.delete(session);
      for (const listener of [...this.listeners]) listener({ type: 'ended', session });
    }
  }

  /**
   * Resolves once this replica hears its signals and has proved it is alive; rejects when Redis
   * did not let it. createRedisSharedState waits for it before a replica serves.
   */
  async ready(): Promise<void> {
    await this.bus.ready;
    await this.alive();
  }

  async open(
    id: string,
    state: SharedSessionState,
    limits: SharedSessionLimits,
  ): Promise<SharedSessionAdmission> {
    const seal = this.seal;
    const owner: Owner = { b: state.binding, p: state.principalId };
    const [admission, victim] = (await this.run(OPEN, [
      id,
      seal.principal(state.principalId),
      seal.field(id, owner),
      limits.maxSessions,
      limits.maxPerPrincipal,
      limits.idleMs,
      seal.field(id, state.logLevel),
    ])) as [SharedSessionAdmission, string?];
    if (victim) await this.ended(victim).catch(() => {});
    return admission;
  }

  async load(id: string): Promise<SharedSessionState | undefined> {
    const answer = (await this.run(LOAD, [id])) as [string[], string[]] | null;
    if (!answer) return undefined;
    const seal = this.seal;
    const fields = pairs(answer[0]);
    // A session whose owner is not proven is no one's: the binding check then refuses every caller.
    const owner = seal.openField<Owner>(id, fields.b);
    if (!owner) return undefined;
    const version = seal.openField<string>(id, fields.v);
    const clientInfo = seal.openField<Record<string, unknown>>(id, fields.ci);
    const clientCapabilities = seal.openField<Record<string, unknown>>(id, fields.cc);
    // `i` is in clear for the change fan-out's script; on its own it proves nothing.
    const initialized = fields.i === '1' && this.provenInitialized(seal, id, fields.is);
    const subscriptions: Record<string, string> = {};
    for (const [digest, sealed] of Object.entries(pairs(answer[1]))) {
      const sub = seal.openField<{ r: string; u: string }>(id, sealed);
      // Filed under another URI's digest: planted or moved, not this subscription.
      if (sub && seal.subscription(sub.r) === digest) subscriptions[sub.r] = sub.u;
    }
    return {
      binding: owner.b,
      principalId: owner.p,
      ...(version === undefined ? {} : { protocolVersion: version }),
      initialized,
      ...(clientInfo === undefined ? {} : { clientInfo }),
      ...(clientCapabilities === undefined ? {} : { clientCapabilities }),
      logLevel: seal.openField<LogLevel>(id, fields.ll) ?? 'info',
      subscriptions,
    };
  }

  private provenInitialized(seal: SessionSeal, id: string, sealed: string | undefined): boolean {
    if (sealed === undefined) return false;
    if (this.initializedSeals.get(id) === sealed) return true;
    if (seal.openField<boolean>(id, sealed) !== true) return false;
    // Bounded: the oldest proof goes first (it is only opened again if still needed).
    if (this.initializedSeals.size >= INITIALIZED_PROOFS) {
      const oldest = this.initializedSeals.keys().next().value;
      if (oldest !== undefined) this.initializedSeals.delete(oldest);
    }
    this.initializedSeals.set(id, sealed);
    return true;
  }

  async update(id: string, change: SharedSessionChange): Promise<void> {
    const seal = this.seal;
    const fields: Record<string, string> = {};
    if (change.protocolVersion !== undefined) fields.v = seal.field(id, change.protocolVersion);
    // In clear for the change fan-out's script, and sealed for this store, which needs both: a
    // forged `i` may have a session told of changes early, never make it initialized.
    if (change.initialized !== undefined) {
      fields.i = change.initialized ? '1' : '0';
      fields.is = seal.field(id, change.initialized);
    }
    if (change.clientInfo !== undefined) fields.ci = seal.field(id, change.clientInfo);
    if (change.clientCapabilities !== undefined) fields.cc = seal.field(id, change.clientCapabilities);
    if (change.logLevel !== undefined) fields.ll = seal.field(id, change.logLevel);
    // Filed under the real URI's digest (what a change announces), the URIs themselves sealed.
    const subscribed: Record<string, string> = {};
    for (const [real, uri] of Object.entries(change.subscribed ?? {}))
      subscribed[seal.subscription(real)] = seal.field(id, { r: real, u: uri });
    // An empty list must not travel as `{}`: cjson would read it back as an object, not a list.
    const removed = (change.unsubscribed ?? []).map((real) => seal.subscription(real));
    await this.run(UPDATE, [
      id,
      JSON.stringify(fields),
      JSON.stringify(subscribed),
      removed.length === 0 ? '[]' : JSON.stringify(removed),
    ]);
  }

  async delete(id: string): Promise<void> {
    this.initializedSeals.delete(id);
    if ((await this.run(DELETE, [id])) === 1) await this.ended(id);
  }

  async claimStream(id: string, lastEventId: string | undefined): Promise<SharedSessionClaim | undefined> {
    // Anything else was never an id of this log: resume from what no stream was handed.
    const after = lastEventId !== undefined && isStreamId(lastEventId) ? lastEventId : '';
    const answer = (await this.run(CLAIM, [id, this.replica, this.heartbeatMs * 3, after])) as
      | [1, string, [string, string[]][]]
      | [0 | -1];
    if (answer[0] !== 1) return undefined;
    this.held.add(id);
    return { tail: answer[1], events: events(this.seal, id, answer[2]) };
  }

  async releaseStream(id: string): Promise<void> {
    this.held.delete(id);
    await this.run(RELEASE, [id, this.replica]);
  }

  async append(id: string, message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    await appendToLogs(this.seal, [{ session: id, message }], LOG_LENGTH, false, (args) =>
      this.run(APPEND, args),
    );
  }

  async replay(id: string, after: string): Promise<SharedSessionEvent[]> {
    if (!isStreamId(after)) return [];
    return events(this.seal, id, (await this.run(REPLAY, [id, after])) as [string, string[]][]);
  }

  async signal(replica: string | undefined, signal: SharedSessionSignal): Promise<void> {
    const channel = replica === undefined ? this.bus.broadcast : `${this.prefix}replica:${replica}`;
    const sealed = this.seal.signal(signal);
    await shared(STATE, () => this.client.publish(channel, sealed));
  }

  onSignal(listener: (signal: SharedSessionSignal) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stop the heartbeat and retire this replica: its stream claims lapse at once. */
  async close(): Promise<void> {
    this.stopBeating();
    this.listeners.clear();
    this.held.clear();
    await this.client.del(`${this.prefix}replica:${this.replica}`).catch(() => {});
  }
}
