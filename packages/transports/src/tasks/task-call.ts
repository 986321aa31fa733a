/**
 * `tools/call` for a tool that may run as a task. The call runs through the layer exactly like a
 * direct one (the caller's principal, policy, pipelines, audit); the layer's `TaskStarter` is the
 * moment it detaches. Until then it is an ordinary request (2026 questions still come back as
 * `input_required`, so a confirmation is settled before any task exists); from then on the
 * request answers with the task's handle, the call goes on under the task's own cancellation, its
 * questions wait in the task, its progress becomes the task's status message, and its outcome
 * is recorded for `tasks/get` (or `tasks/result`).
 */
import {
  Cancellation,
  CancelledError,
  type ClientPort,
  ErrorCode,
  InputRequiredSignal,
  isMcpLayerError,
  type JsonObject,
  onCancel,
  type TaskRecord,
  type TaskStarter,
} from '@cloudg/core';
import { bindingOf } from '../http/session-store.js';
import { methodNotFound, ProtocolError } from '../jsonrpc/errors.js';
import { isObject, notification } from '../jsonrpc/messages.js';
import { handshakePort, inputRequiredResult, modernAsking } from '../protocol/client-requests.js';
import { callOptions, type RequestContext } from '../protocol/request-context.js';
import { LATEST_HANDSHAKE_VERSION } from '../protocol/versions.js';
import type { TaskOutcome } from './task-engine.js';
import { legacyTask, modernTask, RELATED_TASK_META, TASKS_EXTENSION } from './task-wire.js';

/** Whether this request lets the server answer with a task. */
export function acceptsTask(rc: RequestContext): boolean {
  if (rc.era === 'modern') {
    // Declared on the request itself: a 2026 server must not infer it from earlier requests.
    const extensions = rc.envelope?.clientCapabilities.extensions;
    return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
  }
  // The handshake era asks for a task per request, with `params.task`, from 2025-11-25 on.
  return rc.session.protocolVersion === LATEST_HANDSHAKE_VERSION && isObject(rc.params.task);
}

/**
 * Whose task this is: the principal's id and exact set of roles (the binding a session has, so
 * the same person under other roles reaches neither), and on a 2025-11-25 connection also the
 * session, since that revision lists tasks (`tasks/list`) and several unauthenticated clients
 * share one principal id; a 2025 task is also asked its questions through its session. 2026 has
 * no sessions and no listing: its task ids are unguessable handles of the principal.
 */
export function taskOwner(rc: RequestContext): string {
  const { id } = rc.session;
  const binding = bindingOf(rc.principal);
  return rc.era === 'legacy' && id !== undefined ? sessionTaskOwner(binding, id) : binding;
}

/**
 * The principal a task counts against when its owner is a session (2025-11-25), so that opening
 * sessions does not multiply what one credential may keep; undefined when the owner is the
 * principal already.
 */
function taskPrincipal(rc: RequestContext): string | undefined {
  return rc.era === 'legacy' && rc.session.id !== undefined ? bindingOf(rc.principal) : undefined;
}

/** The owner of the 2025-11-25 tasks of a session, from its binding (`bindingOf`) and id. */
export function sessionTaskOwner(binding: string, sessionId: string): string {
  return JSON.stringify([binding, sessionId]);
}

/** -32021 naming the extension: what a request needs that its client did not declare. */
export function tasksExtensionRequired(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.MissingRequiredClientCapability, message, {
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  });
}

/**
 * The task-aware `tools/call`: undefined when the call is an ordinary one (the caller then runs
 * it as usual), else the call's answer (a task handle, or the result when it finished before
 * becoming a task).
 */
export async function callToolAsTask(
  rc: RequestContext,
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<Record<string, unknown> | undefined> {
  const { layer, tasks } = rc.session.server;
  const support = layer.taskSupportOf(name, rc.principal);
  const wanted = acceptsTask(rc);
  if (support === 'required' && !wanted) {
    // 2025-11-25 says -32601 for a task-only tool called without `task`; 2026 says -32021.
    throw rc.era === 'modern'
      ? tasksExtensionRequired(
          'This tool runs only as a task and the client did not declare the tasks extension',
        )
      : methodNotFound('tools/call');
  }
  if (!wanted || support === 'forbidden') {
    // A handshake-era `task` for a tool that cannot run as one: -32601, as 2025-11-25 advises.
    if (wanted && rc.era === 'legacy') throw methodNotFound('tools/call');
    return undefined;
  }

  // The call's own cancellation: the request's until the task exists, then only `tasks/cancel`.
  const cancellation = new Cancellation();
  const unlink = onCancel(rc.cancellation, () => cancellation.abort(new CancelledError('Request cancelled')));
  const asking = rc.era === 'modern' ? modernAsking(rc) : undefined;
  const before: ClientPort = asking ? asking.port : handshakePort(rc);
  let task: TaskRecord | undefined;
  let during: ClientPort | undefined;
  let detached!: (record: TaskRecord) => void;
  const detaching = new Promise<TaskRecord>((resolve) => {
    detached = resolve;
  });
  const starter: TaskStarter = {
    start: async () => {
      const record = await tasks.create(taskOwner(rc), cancellation, taskPrincipal(rc));
      task = record;
      during = taskPort(rc, record.taskId, before);
      unlink();
      detached(record);
    },
  };
  const port: ClientPort = {
    supports: (capability) => before.supports(capability),
    ask: (questions, signal) => (during ?? before).ask(questions, signal),
  };
  const options = { ...callOptions(rc), signal: cancellation, client: port, task: starter };
  const report = options.onProgress;
  options.onProgress = (progress, total, message) => {
    if (!task) return report?.(progress, total, message);
    tasks.progress(task.taskId, progressText(progress, total, message));
    // 2025-11-25 keeps the request's progress token valid for the task's lifetime; the request's
    // own stream is gone, so the notification takes the session's channel.
    if (rc.era === 'legacy' && report) legacyProgress(rc, task.taskId, progress, total, message);
  };
  // One settled promise, never rejected, read both by the race and by the task's bookkeeping.
  const outcome = layer.callTool(name, args, options).then(
    (result) => ({ ok: true as const, wire: result.toWire() as JsonObject }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const first = await Promise.race([outcome, detaching]);
  if (task === undefined) {
    unlink();
    const settled = first as Awaited<typeof outcome>;
    // Done before it became a task (a declined confirmation, a refusal): 2026 allows the result
    // itself; 2025-11-25 promises a task to a request that asked for one, so it gets a finished one.
    if (settled.ok && rc.era === 'legacy') {
      const finished = await tasks.create(taskOwner(rc), cancellation, taskPrincipal(rc));
      await tasks.finish(finished.taskId, taskOutcome(rc, settled));
      return { task: legacyTask(await tasks.find(finished.taskId, taskOwner(rc))) };
    }
    if (settled.ok) return settled.wire;
    if (asking && settled.error instanceof InputRequiredSignal) {
      return inputRequiredResult(rc, asking, settled.error);
    }
    throw settled.error;
  }
  const created = task;
  void outcome
    .then((settled) => tasks.finish(created.taskId, taskOutcome(rc, settled)))
    .catch((error: unknown) => {
      // The store refused every attempt until the task's time to live ran out (finish retries):
      // the record expires with it; the client sees no result rather than a wrong one.
      layer.logger.error({ err: error, taskId: created.taskId }, 'recording the outcome of a task failed');
    });
  return rc.era === 'modern' ? { resultType: 'task', ...modernTask(created) } : { task: legacyTask(created) };
}

/** How a running task asks: parked in the task (2026), or as a request on the session (2025). */
function taskPort(rc: RequestContext, taskId: string, before: ClientPort): ClientPort {
  const { tasks } = rc.session.server;
  if (rc.era === 'modern') {
    return {
      supports: (capability) => before.supports(capability),
      ask: (questions, signal) =>
        tasks.waitForAnswers(taskId, questions as unknown as Record<string, JsonObject>, signal),
    };
  }
  return {
    supports: (capability) => before.supports(capability),
    ask: async (questions, signal) => {
      const send = rc.session.channel;
      if (!send) throw noChannel();
      const entries = Object.entries(questions);
      tasks.markWaiting(taskId, entries.length);
      try {
        const answers = await Promise.all(
          entries.map(([, question]) =>
            rc.session.outgoing.request(
              question.method,
              { ...(question.params as Record<string, unknown>), _meta: { [RELATED_TASK_META]: { taskId } } },
              send,
              signal,
            ),
          ),
        );
        return Object.fromEntries(entries.map(([key], i) => [key, answers[i] ?? null]));
      } finally {
        tasks.markWaiting(taskId, 0);
      }
    },
  };
}

/**
 * A running 2025-11-25 task's progress, on the session's channel, tagged with the task as that
 * revision requires of every message related to a task.
 */
function legacyProgress(
  rc: RequestContext,
  taskId: string,
  progress: number,
  total: number | undefined,
  message: string | undefined,
): void {
  const meta = rc.params._meta;
  const token = isObject(meta) ? meta.progressToken : undefined;
  const send = rc.session.channel;
  if (send === undefined || (typeof token !== 'string' && typeof token !== 'number')) return;
  const params: Record<string, unknown> = { progressToken: token, progress };
  if (total !== undefined) params.total = total;
  if (message !== undefined) params.message = message;
  params._meta = { [RELATED_TASK_META]: { taskId } };
  send(notification('notifications/progress', params));
}

function noChannel(): ProtocolError {
  return new ProtocolError(
    ErrorCode.InternalError,
    'The task cannot ask the client: this connection has no channel for server-to-client requests',
  );
}

function progressText(progress: number, total: number | undefined, message: string | undefined): string {
  const count = total === undefined ? `${progress}` : `${progress}/${total}`;
  return message === undefined ? count : `${count}: ${message}`;
}

/**
 * What the task keeps: a result (even an error result) completes it in 2026; 2025-11-25 counts a
 * tool error as failed. A protocol-level failure keeps its JSON-RPC error.
 */
function taskOutcome(
  rc: RequestContext,
  settled: { ok: true; wire: JsonObject } | { ok: false; error: unknown },
): TaskOutcome {
  if (settled.ok) {
    const failed = rc.era === 'legacy' && settled.wire.isError === true;
    return { kind: 'result', result: settled.wire, status: failed ? 'failed' : 'completed' };
  }
  const { error } = settled;
  if (isMcpLayerError(error)) {
    const wire = error.toJsonRpc();
    return { kind: 'error', error: wire as unknown as JsonObject, message: wire.message };
  }
  rc.session.server.layer.logger.error({ err: error }, 'task failed');
  return {
    kind: 'error',
    error: { code: ErrorCode.InternalError, message: 'Internal error' },
    message: 'Internal error',
  };
}
