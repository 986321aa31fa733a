/**
 * A task: a tool call that answers at once with a handle and finishes in the background (the MCP
 * tasks extension of 2026-07-28 and the experimental tasks of 2025-11-25). The record is plain
 * JSON so that a store shared by several replicas can keep it as it is.
 */
import type { JsonObject } from '../json.js';

/** Whether a tool may run as a task: never (the default), when the client can, or only so. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/**
 * When a task-capable call turns into a task: just before its handler runs (after the policy's
 * checks and confirmation), or when the handler calls `ToolContext.startTask()` itself, for a tool
 * that asks its questions first and then works long.
 */
export type TaskStart = 'before-handler' | 'handler';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];
export const ACTIVE_TASK_STATUSES: readonly TaskStatus[] = ['working', 'input_required'];

export function isTerminalStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.includes(status);
}

export interface TaskRecord {
  /** Unguessable: it names the task on every later request. */
  taskId: string;
  /**
   * Who created it, as the transport keys it (the principal id; on 2025-11-25 with the session);
   * nobody else can see it.
   */
  owner: string;
  /**
   * The principal the owner belongs to, when the owner is narrower (on 2025-11-25 each session
   * owns its tasks): stores bound the tasks of a principal too, so one credential cannot open
   * sessions to keep the owner bound many times over. Absent: the owner is the principal.
   */
  principal?: string;
  status: TaskStatus;
  /** Progress while working, the reason of a failure: shown as `statusMessage`. */
  statusMessage?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastUpdatedAt: number;
  /** How long after `createdAt` the task is kept, in milliseconds. */
  ttlMs: number;
  pollIntervalMs: number;
  /** The call's result as it goes on the wire (already through the caller's output pipeline). */
  result?: JsonObject;
  /** The JSON-RPC error (`code`, `message`, `data`) of a call that failed at the protocol level. */
  error?: JsonObject;
  /** Questions waiting for the client's answers, by key (status `input_required`). */
  inputRequests?: Record<string, JsonObject>;
}

/** The fields a status change may set; `lastUpdatedAt` is always set with them. */
export type TaskPatch = Partial<
  Pick<TaskRecord, 'status' | 'statusMessage' | 'result' | 'error' | 'inputRequests'>
> & {
  lastUpdatedAt: number;
};

/**
 * What a transport gives a task-capable call: `start` creates the task (durably: a later lookup
 * finds it) and lets the request answer with the task's handle while the call goes on.
 */
export interface TaskStarter {
  start(): Promise<void>;
}
