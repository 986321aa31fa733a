/**
 * Where tasks are kept: a port with an in-process default (`MemoryTaskStore`). Records are plain
 * JSON and every operation is a single-key read or a conditional write, so a store shared by
 * replicas (Redis) can implement it. A shared store must guarantee:
 *
 * - `create` resolves only once a `get` from any replica finds the record (the spec forbids
 *   answering with a task handle before that);
 * - `transition` is atomic: it applies the patch only if the status is still one of `from`, so a
 *   cancelled or finished task never changes again whichever replica writes last;
 * - records disappear after `createdAt + ttlMs` and the store bounds how many one owner keeps.
 *
 * What a shared store cannot carry is the running work itself: the call, its cancellation and the
 * questions it waits on live in the replica that runs it, so `tasks/cancel` and `tasks/update`
 * must reach that replica: a `TaskRelay` (task-relay.ts) carries them there from any replica
 * (HTTP clients also send the task id as `Mcp-Name`, for a balancer that routes by it).
 */
import type { TaskPatch, TaskRecord, TaskStatus } from './task-record.js';

export interface TaskStore {
  /** Keep a new record; throws `RateLimitedError` when its owner already keeps too many. */
  create(record: TaskRecord): Promise<void>;
  /** The record, or undefined when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Apply `patch` if the status is one of `from`; the updated record, or undefined when not applied. */
  transition(taskId: string, from: readonly TaskStatus[], patch: TaskPatch): Promise<TaskRecord | undefined>;
  /** The owner's records, oldest first (the handshake era's `tasks/list`). */
  list(owner: string): Promise<TaskRecord[]>;
}
