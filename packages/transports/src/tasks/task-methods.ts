/**
 * The task methods of each era. 2026-07-28 (tasks extension): `tasks/get`, `tasks/update`,
 * `tasks/cancel`, refused with -32021 on a request that does not declare the extension
 * (`tasks/result` and `tasks/list` do not exist there: -32601). 2025-11-25 (experimental tasks):
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`.
 */
import { ErrorCode, type TaskRecord } from '@cloudg/core';
import { invalidParams, ProtocolError } from '../jsonrpc/errors.js';
import { isObject } from '../jsonrpc/messages.js';
import { paginate } from '../paging/cursor.js';
import type { MethodHandler } from '../protocol/methods.js';
import type { RequestContext } from '../protocol/request-context.js';
import { waitForResult } from './result-waiters.js';
import { acceptsTask, taskOwner, tasksExtensionRequired } from './task-call.js';
import { legacyTask, modernDetailedTask, RELATED_TASK_META } from './task-wire.js';

function requireExtension(rc: RequestContext): void {
  if (!acceptsTask(rc))
    throw tasksExtensionRequired('Task methods need the tasks extension declared in the request');
}

export const modernTaskMethods: Record<string, MethodHandler> = {
  'tasks/get': async (rc) => {
    requireExtension(rc);
    return modernDetailedTask(await rc.session.server.tasks.find(rc.params.taskId, taskOwner(rc)));
  },
  'tasks/update': async (rc) => {
    requireExtension(rc);
    const responses = rc.params.inputResponses;
    if (!isObject(responses)) throw invalidParams('inputResponses must be an object');
    await rc.session.server.tasks.update(rc.params.taskId, taskOwner(rc), responses);
    return {};
  },
  'tasks/cancel': async (rc) => {
    requireExtension(rc);
    // Cancelling a finished task is acknowledged like any other (the extension makes it idempotent).
    await rc.session.server.tasks.cancel(rc.params.taskId, taskOwner(rc));
    return {};
  },
};

export const legacyTaskMethods: Record<string, MethodHandler> = {
  'tasks/get': async (rc) => legacyTask(await rc.session.server.tasks.find(rc.params.taskId, taskOwner(rc))),
  'tasks/result': async (rc) => {
    const { tasks } = rc.session.server;
    const found = await tasks.find(rc.params.taskId, taskOwner(rc));
    // Blocks until the task is finished, as 2025-11-25 requires; cancelling the request stops
    // waiting, and so does a later tasks/result of this session for the same task, on any replica.
    const wait = await waitForResult(rc.session, found.taskId, rc.cancellation.signal, tasks);
    let record: TaskRecord;
    try {
      record = await tasks.settled(found.taskId, taskOwner(rc), wait.signal);
    } finally {
      wait.done();
    }
    const related = { [RELATED_TASK_META]: { taskId: record.taskId } };
    if (record.status === 'cancelled') {
      throw new ProtocolError(ErrorCode.InvalidParams, 'The task was cancelled and has no result', {
        data: related,
      });
    }
    if (record.result) {
      const meta = isObject(record.result._meta) ? record.result._meta : {};
      return { ...record.result, _meta: { ...meta, ...related } };
    }
    const error = record.error ?? { code: ErrorCode.InternalError, message: 'Internal error' };
    throw new ProtocolError(
      typeof error.code === 'number' ? error.code : ErrorCode.InternalError,
      typeof error.message === 'string' ? error.message : 'Internal error',
      error.data === undefined ? { data: related } : { data: error.data },
    );
  },
  'tasks/list': async (rc) => {
    const records = await rc.session.server.tasks.store.list(taskOwner(rc));
    const page = paginate('tasks', records.map(legacyTask), rc.params.cursor, rc.session.server.pageSize);
    const result: Record<string, unknown> = { tasks: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  },
  'tasks/cancel': async (rc) => {
    const { record, finished } = await rc.session.server.tasks.cancel(rc.params.taskId, taskOwner(rc));
    if (finished) {
      throw new ProtocolError(ErrorCode.InvalidParams, `Cannot cancel task: it is already ${record.status}`);
    }
    return legacyTask(record);
  },
};
