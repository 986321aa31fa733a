/**
 * How replicas that share a `TaskStore` reach the one running a task. A shared store carries the
 * records, but the running work (its cancellation, the questions it waits on) stays in the
 * process that runs it; a relay carries what must reach that process, and each change a replica
 * makes, so listeners on every replica hear it (`notifications/tasks`).
 *
 * A relay is a best-effort broadcast: a signal sent while nobody listens is lost. The store
 * stays the truth (a cancellation is written there before it is relayed; a change is read again
 * on the next poll), so a lost signal delays, it never corrupts.
 */
import type { JsonValue } from '../json.js';
import type { TaskRecord } from './task-record.js';

export type TaskSignal =
  /** Abort the work of a task already marked `cancelled` in the store. */
  | { kind: 'cancel'; taskId: string }
  /** Answers of `tasks/update` for questions the task waits on, by key. */
  | { kind: 'answer'; taskId: string; responses: Record<string, JsonValue> }
  /** A task changed (as the store now holds it). */
  | { kind: 'changed'; record: TaskRecord };

export interface TaskRelay {
  /** Tell the other replicas. Rejects when the signal could not be sent. */
  send(signal: TaskSignal): Promise<void>;
  /** Hear what other replicas send (never this replica's own signals); returns the function that stops. */
  listen(handler: (signal: TaskSignal) => void): () => void;
  /**
   * Become the one waiter for `taskId`'s result (the handshake era's blocking `tasks/result`) on
   * every replica: an earlier waiter, on any replica, is superseded (its `superseded` is called
   * there), as a later wait supersedes an earlier one in one process. Resolves with the function
   * that gives the claim up; rejects when the claim cannot be recorded (the wait must then not
   * start, or the one-waiter rule would silently hold per replica only). Optional: a relay
   * without it leaves the rule to each process.
   */
  claimWait?(taskId: string, superseded: () => void): Promise<() => void>;
  /**
   * Hear when this replica may have missed signals (its connection to the others is back after
   * a break): whoever relies on `changed` signals reads the store again. Returns the function
   * that stops. Optional: a relay that never loses signals has nothing to report.
   */
  onResumed?(handler: () => void): () => void;
}
