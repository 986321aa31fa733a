/**
 * The port of a workspace shared by several replicas (issue 20): an ordered log of workspace
 * operations, and a lease that lets one caller at a time, on any replica, append to it. This
 * package defines the port and the replica's side (`SharedWorkspace`); the Redis implementation
 * lives in @cloudg/redis. Without a log the workspace is the process's own, as it always was.
 */
import type { WorkspaceOperation } from './operations.js';

export interface LoggedOperation {
  /** Position in the log, from 1; every replica applies operations in this order. */
  seq: number;
  operation: WorkspaceOperation;
}

/** The right to append, held by one call on one replica at a time. */
export interface WorkspaceLease {
  /**
   * Append operations after everything the log holds; returns the head after them. Refused
   * (throws) when the lease was lost meanwhile (it expired), so two writers never interleave.
   */
  append(operations: readonly WorkspaceOperation[]): Promise<LogHead>;
  /**
   * Replace every operation up to `seq` (the head, or before it) by `operations`, the ones still
   * in effect (`compactOperations`): the log's snapshot. Refused like `append` when the lease was
   * lost. Optional: a log without it is never compacted.
   */
  compact?(seq: number, operations: readonly WorkspaceOperation[]): Promise<void>;
  /** Give the lease up; never throws (an unreleased lease expires by itself). */
  release(): Promise<void>;
}

/** Where a log stands. */
export interface LogHead {
  /** The seq of the last operation, 0 for an empty log. */
  seq: number;
  /**
   * Names this log's history: it changes when the log was lost and begun again (a Redis
   * restarted without its data), so a replica knows its seqs no longer count. '' before the
   * first append.
   */
  epoch: string;
  /**
   * The seq the log's snapshot covers (0 or absent: never compacted). Operations up to it are no
   * longer in the log: a replica that has applied less catches up from `snapshot()`.
   */
  base?: number;
}

/** The operations still in effect up to `seq`, which replaced the log's first `seq` entries. */
export interface LogSnapshot {
  seq: number;
  operations: WorkspaceOperation[];
}

export interface WorkspaceLog {
  head(): Promise<LogHead>;
  /** Every operation after `seq`, in order (after a compaction, none before its `base`). */
  read(after: number): Promise<LoggedOperation[]>;
  /** The log's snapshot (seq 0, no operations, when never compacted). Optional with `compact`. */
  snapshot?(): Promise<LogSnapshot>;
  /**
   * Wait for the lease and take it, or reject when `signal` aborts. A lease whose replica died
   * expires by itself after the log's lease time; a live holder keeps renewing it.
   */
  lease(signal: AbortSignal): Promise<WorkspaceLease>;
  /**
   * Be told when another replica appended (best effort: the shared workspace also polls).
   * Returns a function that stops it.
   */
  watch(listener: (seq: number) => void): () => void;
}
