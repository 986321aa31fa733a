/**
 * Handshake-era sessions shared by replicas, on this replica: a local view of each session it
 * serves, read from the shared store at every request and written back before the response
 * leaves; the standalone stream of the sessions whose GET this replica holds; and the signals
 * of the other replicas (events for those streams, answers to this replica's questions,
 * cancellations, sessions ended elsewhere). The consistency model is in shared-session-store.ts.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Principal } from '@cloudg/core';
import type { McpProtocolServer } from '../protocol/server.js';
import { captureState, restoreState, stateChange } from './session-state.js';
import { bindingOf, HttpSession, type SessionStore } from './session-store.js';
import type {
  SharedSessionAdmission,
  SharedSessionClaim,
  SharedSessionEvent,
  SharedSessionLimits,
  SharedSessionSignal,
  SharedSessionState,
  SharedSessionStore,
} from './shared-session-store.js';
import { SseStream } from './sse-stream.js';

/**
 * How far the replicas' clocks may disagree when a cancellation sent from one is compared with
 * the start of a request on another (they agree by NTP, as docs/replicas.md requires).
 */
const CANCEL_CLOCK_SKEW_MS = 1000;

/** A view and the state it was read in, to tell what a request changed. */
export interface SharedEntry {
  entry: HttpSession;
  before: SharedSessionState;
}

interface HeldStream {
  /** Undefined while the stream is being claimed. */
  stream: SseStream | undefined;
  /** The id of the last event written (or, before any, the log's tail when it was claimed). */
  last: string | undefined;
  /** Events heard while the stream is claimed or catches up, written after what it read. */
  buffer: SharedSessionEvent[] | undefined;
}

/** Whether stream id `a` ("ms-seq") comes after `b`. */
function isAfter(a: string, b: string): boolean {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am > bm || (am === bm && as > bs);
}

/** The replica in the id of a question (`cloudg-<replica>-<view>-<n>`), if it is one. */
function replicaOf(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  return /^cloudg-([0-9a-f]+)-[0-9a-f]+-\d+$/.exec(id)?.[1];
}

export class SharedSessions {
  private readonly held = new Map<string, HeldStream>();
  /**
   * What each view was last made from (restored, or written back): the view's subscriptions
   * beyond it are a request's changes on this replica not saved yet, which a restore for another
   * request must keep.
   */
  private readonly bases = new WeakMap<HttpSession, SharedSessionState>();
  private readonly stopSignals: () => void;

  constructor(
    readonly store: SharedSessionStore,
    private readonly local: SessionStore,
    private readonly protocol: McpProtocolServer,
    private readonly limits: SharedSessionLimits,
    private readonly keepaliveMs: number,
  ) {
    this.stopSignals = store.onSignal((signal) => this.hear(signal));
  }

  private lost(error: unknown, what: string): void {
    this.protocol.layer.logger.warn({ err: error }, what);
  }

  private view(id: string, principal: Principal): HttpSession {
    const forward = (replica: string | undefined, signal: SharedSessionSignal) =>
      this.store
        .signal(replica, signal)
        .catch((error: unknown) => this.lost(error, 'relay to a replica failed'));
    return new HttpSession(this.protocol, 'streamable', principal, {
      id,
      deliver: (message) => {
        this.store
          .append(id, message)
          .catch((error: unknown) => this.lost(error, 'session stream message lost'));
      },
      relay: {
        response: (message) => {
          const replica = replicaOf(message.id);
          if (replica !== undefined && replica !== this.store.replica)
            forward(replica, { type: 'response', session: id, message });
        },
        // Where a request runs is not recorded: every replica hears the cancellation, the one
        // running it acts.
        cancel: (requestId) => forward(undefined, { type: 'cancel', session: id, requestId }),
      },
      // The view's own random part makes every question's id unique for good (a view made again
      // for the session on this replica counts from 1 again): an answer relayed from another
      // replica, even one published again later, settles only the question it answered.
      questionPrefix: `cloudg-${this.store.replica}-${randomBytes(6).toString('hex')}-`,
    });
  }

  /** A new session for this caller (quota counted across replicas), or why not. */
  async open(principal: Principal): Promise<SharedEntry | Exclude<SharedSessionAdmission, 'ok'>> {
    const entry = this.view(randomBytes(16).toString('hex'), principal);
    const before = captureState(entry.session, entry.binding, principal.id);
    const admission = await this.store.open(entry.id, before, this.limits);
    if (admission !== 'ok') {
      entry.session.close();
      return admission;
    }
    this.local.add(entry);
    this.bases.set(entry, before);
    return { entry, before };
  }

  /**
   * The caller's session as the store holds it now. Undefined when it is gone (deleted or
   * expired, on any replica), or another principal's, or opened with other roles.
   */
  async find(id: string, principal: Principal): Promise<SharedEntry | undefined> {
    const state = await this.store.load(id);
    const existing = this.local.get(id);
    if (!state) {
      if (existing) this.local.delete(id);
      return undefined;
    }
    if (state.binding !== bindingOf(principal)) return undefined;
    let entry = existing?.kind === 'streamable' ? existing : undefined;
    if (!entry) {
      entry = this.view(id, principal);
      this.local.add(entry);
    }
    const base = this.bases.get(entry);
    // Another request on this view may be between its (un)subscribe and its save: its change is
    // laid over what the store holds instead of being replaced by it (and then never saved).
    const pending = base
      ? stateChange(base, captureState(entry.session, entry.binding, entry.principalId))
      : undefined;
    restoreState(entry.session, state);
    if (pending?.subscribed || pending?.unsubscribed) {
      const merged = { ...state.subscriptions, ...pending.subscribed };
      for (const real of pending.unsubscribed ?? []) delete merged[real];
      entry.session.subscriptions.replace(merged);
    }
    this.bases.set(entry, state);
    return { entry, before: state };
  }

  /** Write back what a request changed, before its response leaves. */
  async save({ entry, before }: SharedEntry): Promise<void> {
    const change = stateChange(before, captureState(entry.session, entry.binding, entry.principalId));
    if (!change) return;
    await this.store.update(entry.id, change);
    // What the store holds now includes this request's subscriptions: no longer pending.
    const base = this.bases.get(entry);
    if (base && (change.subscribed || change.unsubscribed)) {
      const subscriptions = { ...base.subscriptions, ...change.subscribed };
      for (const real of change.unsubscribed ?? []) delete subscriptions[real];
      this.bases.set(entry, { ...base, subscriptions });
    }
  }

  /** End the session on every replica (DELETE, a failed initialize). */
  async end(entry: HttpSession): Promise<void> {
    await this.store.delete(entry.id);
    this.local.delete(entry.id);
  }

  /**
   * GET: hold the session's standalone stream here and write what the client has not seen
   * (after `lastEventId`, else what no stream was handed). False when another live replica holds it.
   */
  async attach(entry: HttpSession, res: ServerResponse, lastEventId: string | undefined): Promise<boolean> {
    // The store knows which replica holds the stream; whether this one holds it already is known here.
    const mine = this.held.get(entry.id);
    if (mine && !(mine.stream?.closed ?? false)) return false;
    // Registered before the claim: once the store has it, events for it may arrive (on another
    // connection) before the claim's own answer does; they wait in the buffer.
    const held: HeldStream = { stream: undefined, last: undefined, buffer: [] };
    this.held.set(entry.id, held);
    let claim: SharedSessionClaim | undefined;
    try {
      claim = await this.store.claimStream(entry.id, lastEventId);
    } finally {
      if (!claim && this.held.get(entry.id) === held) this.held.delete(entry.id);
    }
    if (!claim) return false;
    const stream = new SseStream(res, this.keepaliveMs, { 'Mcp-Session-Id': entry.id });
    held.stream = stream;
    entry.attach(stream);
    entry.touch();
    res.on('close', () => {
      if (this.held.get(entry.id) === held) {
        this.held.delete(entry.id);
        this.store
          .releaseStream(entry.id)
          .catch((error: unknown) => this.lost(error, 'stream release failed'));
      }
      if (entry.stream === stream) entry.stream = undefined;
      entry.touch();
    });
    // What the claim read first (all of it up to the log's tail), then what was heard after it.
    for (const event of claim.events) stream.send(event.message, 'message', event.id);
    held.last = claim.tail;
    this.flush(held, []);
    return true;
  }

  /** Write `events` and what was heard meanwhile, in log order and each once; stop buffering. */
  private flush(held: HeldStream, events: SharedSessionEvent[]): void {
    const heard = held.buffer ?? [];
    held.buffer = undefined;
    const merged = new Map<string, SharedSessionEvent>();
    for (const event of [...events, ...heard]) merged.set(event.id, event);
    const ordered = [...merged.values()].sort((x, y) => (isAfter(x.id, y.id) ? 1 : -1));
    for (const event of ordered) this.write(held, event);
  }

  private write(held: HeldStream, event: SharedSessionEvent): void {
    if (held.buffer) {
      held.buffer.push(event);
      return;
    }
    // An event both replayed and heard is written once.
    if (!held.stream || (held.last !== undefined && !isAfter(event.id, held.last))) return;
    held.stream.send(event.message, 'message', event.id);
    held.last = event.id;
  }

  private hear(signal: SharedSessionSignal): void {
    switch (signal.type) {
      case 'event': {
        const held = this.held.get(signal.session);
        if (held) this.write(held, signal.event);
        return;
      }
      case 'ended':
        this.held.delete(signal.session);
        this.local.delete(signal.session);
        return;
      case 'response':
        this.local.get(signal.session)?.session.outgoing.settle(signal.message);
        return;
      case 'cancel':
        this.local
          .get(signal.session)
          ?.session.cancel(
            signal.requestId,
            signal.sentAt === undefined ? undefined : signal.sentAt + CANCEL_CLOCK_SKEW_MS,
          );
        return;
      case 'resync':
        for (const [id, held] of this.held) {
          // A stream still being claimed gets its events with the claim.
          if (held.buffer || held.last === undefined) continue;
          held.buffer = [];
          this.store.replay(id, held.last).then(
            (events) => this.flush(held, events),
            (error: unknown) => {
              this.flush(held, []);
              this.lost(error, 'stream catch-up failed');
            },
          );
        }
        return;
    }
  }

  /** Stop hearing signals and give up the streams held here, so clients reconnect elsewhere at once. */
  async close(): Promise<void> {
    this.stopSignals();
    const ids = [...this.held.keys()];
    this.held.clear();
    await Promise.all(
      ids.map((id) =>
        this.store.releaseStream(id).catch((error: unknown) => this.lost(error, 'stream release failed')),
      ),
    );
  }
}
