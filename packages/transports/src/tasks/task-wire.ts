/**
 * A task record as each era puts it on the wire. 2026-07-28 (tasks extension): flat fields, the
 * durations named `ttlMs` and `pollIntervalMs`, the result or error inlined on `tasks/get`.
 * 2025-11-25 (experimental tasks): `ttl` and `pollInterval`, the result fetched with `tasks/result`.
 */
import type { TaskRecord } from '@cloudg/core';

/** The extension's identifier, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The 2025-11-25 `_meta` key that ties a message to its task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

function common(record: TaskRecord): Record<string, unknown> {
  const wire: Record<string, unknown> = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) wire.statusMessage = record.statusMessage;
  wire.createdAt = new Date(record.createdAt).toISOString();
  wire.lastUpdatedAt = new Date(record.lastUpdatedAt).toISOString();
  return wire;
}

/** The task fields of a 2026 `CreateTaskResult`, `tasks/get` and `notifications/tasks`. */
export function modernTask(record: TaskRecord): Record<string, unknown> {
  return { ...common(record), ttlMs: record.ttlMs, pollIntervalMs: record.pollIntervalMs };
}

/** The 2026 `DetailedTask` of `tasks/get`: the status's own payload inlined. */
export function modernDetailedTask(record: TaskRecord): Record<string, unknown> {
  const wire = modernTask(record);
  if (record.status === 'completed' && record.result) wire.result = record.result;
  if (record.status === 'failed' && record.error) wire.error = record.error;
  if (record.status === 'input_required') wire.inputRequests = record.inputRequests ?? {};
  return wire;
}

/** A 2025-11-25 `Task`. */
export function legacyTask(record: TaskRecord): Record<string, unknown> {
  return { ...common(record), ttl: record.ttlMs, pollInterval: record.pollIntervalMs };
}
