/**
 * The port for handshake-era sessions shared by several replicas (`Mcp-Session-Id` on any of
 * them). The HTTP server keeps a local view of each session it serves and asks the store for
 * the state on every request; the store holds what a session needs to continue elsewhere and
 * routes what must reach the client's standalone stream to the replica that holds it.
 *
 * Consistency model, which every implementation must give:
 * - a request reads the session's state as of its start (one lookup per request), and a change
 *   a request makes (initialize, notifications/initialized, logging/setLevel, resources/
 *   subscribe) is written before its response leaves: a client that waits for an answer before
 *   its next request sees its own changes on every replica;
 * - changes are per field; two requests racing on different replicas keep the later write of
 *   the same field (subscriptions are per URI, so two subscriptions never erase each other);
 * - a session deleted or expired is gone for every replica's next request at once; replicas that
 *   hold a view of it hear so through `onSignal` and drop the view (its stream ends, its requests
 *   are cancelled);
 * - messages for the standalone stream are kept in order in a bounded event log, so a client
 *   whose stream broke resumes it on any replica with `Last-Event-ID`.
 */
import type { LogLevel } from '@cloudg/core';
import type { JsonRpcMessage, RequestId } from '../jsonrpc/messages.js';

/** What a session needs to continue on another replica. */
export interface SharedSessionState {
  /** Who may use it: JSON of the principal id and its sorted roles. */
  binding: string;
  principalId: string;
  /** The negotiated protocol version, once initialize was answered. */
  protocolVersion?: string;
  /** Whether the client sent `notifications/initialized`. */
  initialized: boolean;
  clientInfo?: Record<string, unknown>;
  clientCapabilities?: Record<string, unknown>;
  /** The `logging/setLevel` threshold. */
  logLevel: LogLevel;
  /** Subscribed resources: the real URI a change carries → the URI the client sent. */
  subscriptions: Record<string, string>;
}

/** The fields one request changed; `subscribed` and `unsubscribed` are per URI. */
export interface SharedSessionChange {
  protocolVersion?: string;
  initialized?: boolean;
  clientInfo?: Record<string, unknown>;
  clientCapabilities?: Record<string, unknown>;
  logLevel?: LogLevel;
  /** Real URI → client URI, added. */
  subscribed?: Record<string, string>;
  /** Real URIs, removed. */
  unsubscribed?: string[];
}

export interface SharedSessionLimits {
  /** Live sessions across every replica. */
  maxSessions: number;
  /** Live sessions of one principal id across every replica. */
  maxPerPrincipal: number;
  /** A session unused this long (and without an open stream) expires. */
  idleMs: number;
}

/** `quota`: the principal is at its limit with no session to end; `full`: the global cap. */
export type SharedSessionAdmission = 'ok' | 'full' | 'quota';

/** A message of a session's standalone stream with its event id (the SSE `id:`). */
export interface SharedSessionEvent {
  id: string;
  message: JsonRpcMessage | JsonRpcMessage[];
}

/** A stream claimed for this replica, and what its client has not seen yet. */
export interface SharedSessionClaim {
  /** Logged events to write first, oldest first. */
  events: SharedSessionEvent[];
  /**
   * The newest event id of the log when the stream was claimed ('0-0' for an empty log):
   * everything after it reaches this replica as `event` signals.
   */
  tail: string;
}

/** What the store tells a replica. */
export type SharedSessionSignal =
  /** A message for a stream this replica holds. */
  | { type: 'event'; session: string; event: SharedSessionEvent }
  /** The session was deleted or expired: drop the view. */
  | { type: 'ended'; session: string }
  /** A client's response to a question this replica asked (it arrived at another replica). */
  | { type: 'response'; session: string; message: Record<string, unknown> }
  /**
   * The client cancelled a request that may run here. `sentAt` (ms since the epoch, on the
   * sending replica's clock) is when the store proves it was sent: a request that started after
   * it (give or take the replicas' clock skew) reused the id and is not the one cancelled.
   */
  | { type: 'cancel'; session: string; requestId: RequestId; sentAt?: number }
  /**
   * Signals may have been missed (the store's connection was lost and is back): the streams held
   * here catch up from their log, after the last event each one wrote (or its claim's tail).
   */
  | { type: 'resync' };

export interface SharedSessionStore {
  /** This replica's id (hex): questions it asks a client carry it, so answers find their way back. */
  readonly replica: string;
  /**
   * Room for a new session of `state.principalId`, and the session recorded. At the principal's
   * quota its least recently used session without an open stream is ended to make room.
   */
  open(id: string, state: SharedSessionState, limits: SharedSessionLimits): Promise<SharedSessionAdmission>;
  /** The session's state, its expiry pushed back; undefined when it is gone. */
  load(id: string): Promise<SharedSessionState | undefined>;
  /** Write what a request changed (nothing when the session is gone). */
  update(id: string, change: SharedSessionChange): Promise<void>;
  /** End the session for every replica. */
  delete(id: string): Promise<void>;
  /**
   * Hold the session's standalone stream here and, in the same step, read what its client has
   * not seen: the events after `lastEventId`, or without one those no stream was handed.
   * Undefined when a live replica already holds the stream (or the session is gone).
   */
  claimStream(id: string, lastEventId: string | undefined): Promise<SharedSessionClaim | undefined>;
  releaseStream(id: string): Promise<void>;
  /** Append a message to the session's stream: logged, and routed to the replica holding it. */
  append(id: string, message: JsonRpcMessage | JsonRpcMessage[]): Promise<void>;
  /** Logged events after `after` (a stream catching up after a `resync`). */
  replay(id: string, after: string): Promise<SharedSessionEvent[]>;
  /** Send a signal to one replica, or to every replica when `replica` is undefined. */
  signal(replica: string | undefined, signal: SharedSessionSignal): Promise<void>;
  /** Hear the signals meant for this replica. Returns the way to stop. */
  onSignal(listener: (signal: SharedSessionSignal) => void): () => void;
}
