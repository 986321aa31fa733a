/**
 * Change fan-out: the port through which a change announced on one replica reaches the listeners
 * of every replica (2026 `subscriptions/listen` streams, handshake-era sessions). Without one, a
 * protocol server hears its own layer's changes only, as a single process always has.
 */
import type { ChangeKind, ChangeListener } from '@cloudg/core';

export interface ChangeFanout {
  /**
   * Announce a change made on this replica. Every subscriber hears it once: this replica's at
   * once, the other replicas' as soon as the announcement reaches them. Never throws: a change
   * that cannot be spread is logged by the implementation and stays local.
   */
  announce(kind: ChangeKind, uri?: string): void;
  /** Hear every announced change, from this replica or another. Returns the way to stop. */
  subscribe(listener: ChangeListener): () => void;
  /**
   * Hear when this replica missed changes it cannot tell one by one (more than the fan-out keeps
   * for a replica whose connection broke, or a store that lost its data). The server then tells
   * each listener everything it follows, as if all of it had changed: the protocol has no signal
   * for "you may have missed something", and a notification too many only makes a client read
   * again. Optional: a fan-out that never misses anything has nothing to report.
   */
  onMissed?(listener: () => void): () => void;
}
