/**
 * The port for the deprecated HTTP+SSE transport behind several replicas. Its stream cannot move
 * (the 2024-11-05 transport has no resumption), so a session lives where its `GET /sse` landed;
 * what travels is the client's POSTs: a replica that gets a POST for a session another replica
 * holds forwards it there, and the holder handles it exactly as a POST it received itself.
 *
 * Model every implementation must give:
 * - `hold` counts the session in the session cap and per-principal quota every replica shares,
 *   the same count as the handshake-era sessions' (`SharedSessionStore.open`, so give the server
 *   both): one rule across replicas and both transports, as one replica's store counts them. At
 *   the principal's quota its least recently used 2025 session without an open stream is ended
 *   to make room; a session of this transport always has its stream open, so it never is. Refused
 *   (`quota`, `full`), nothing is recorded;
 * - `hold` is recorded before the stream names its endpoint, so the client's first POST finds the
 *   session on any replica; the record, and the session's place in the count, live while the
 *   holding replica lives (renewed with the replica's heartbeat) and go with `release`, or when
 *   the holder dies;
 * - `locate` answers the holder only while that replica is alive, with the binding the session
 *   was opened with (the principal id and roles), so a POST from anyone else is refused before
 *   its body is read, as on the holder;
 * - `forward` is false when no live replica heard the message (the holder died meanwhile): the
 *   POST then gets what a POST for an unknown session gets. Forwarded messages of one sender
 *   reach the holder in the order they were forwarded.
 */
import type { TraceCarrier } from '../protocol/observe.js';
import type { SharedSessionAdmission } from './shared-session-store.js';

/** Who sent a forwarded POST: what the holder rebuilds the caller's principal from. */
export interface LegacySsePrincipal {
  id: string;
  roles: string[];
  /** The principal's attributes, as JSON carries them. */
  attributes: Record<string, unknown>;
}

/** A POST of a session held elsewhere, as the holding replica receives it. */
export interface LegacySsePost {
  session: string;
  principal: LegacySsePrincipal;
  /** The parsed JSON-RPC message (or batch). */
  message: unknown;
  /** The POST's trace context headers (`traceparent`, `tracestate`), when it had any. */
  carrier?: TraceCarrier;
}

/** Where a session's stream is held. */
export interface LegacySseHolder {
  /** The replica holding the stream. */
  replica: string;
  /** The session's binding (`bindingOf` the principal that opened it). */
  binding: string;
}

/** What a new session is counted against, and whose it is. */
export interface LegacySseQuota {
  /** The principal id that opens the session: its quota. */
  principalId: string;
  /** Live sessions across every replica and both transports (`maxSessions`). */
  maxSessions: number;
  /** Live sessions of `principalId` across every replica and both transports. */
  maxPerPrincipal: number;
}

export interface LegacySseRelay {
  /** This replica's id: a session located here is served from the local store. */
  readonly replica: string;
  /**
   * Count session `id` against `quota` and, when admitted (`ok`), record that this replica holds
   * its stream, opened by `binding`.
   */
  hold(id: string, binding: string, quota: LegacySseQuota): Promise<SharedSessionAdmission>;
  /** The stream has closed: the session is gone for every replica, and counts no more. */
  release(id: string): Promise<void>;
  /** The live replica holding session `id`, or undefined when none does. */
  locate(id: string): Promise<LegacySseHolder | undefined>;
  /** Send a POST to the replica holding its session; false when no live replica heard it. */
  forward(replica: string, post: LegacySsePost): Promise<boolean>;
  /** Hear the POSTs other replicas forward here. Returns the way to stop. */
  onPost(listener: (post: LegacySsePost) => void): () => void;
}
