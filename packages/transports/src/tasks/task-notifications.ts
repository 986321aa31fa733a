/**
 * `notifications/tasks` on a 2026 `subscriptions/listen` stream (optional in the extension): the
 * client names the tasks it wants to hear about in `notifications.taskIds`; the server agrees to
 * those the caller owns, acknowledges them, and sends the task as `tasks/get` would show it each
 * time it changes. A task changes on the replica running it (or the one that cancels it); with a
 * task relay shared by replicas, every replica hears those changes, so the stream may be held by
 * any of them. A replica whose relay lost its connection for a while reads the tasks its streams
 * follow again once it is back, and tells each one that changed meanwhile.
 */
import type { TaskRecord } from '@cloudg/core';
import { invalidParams } from '../jsonrpc/errors.js';
import { isObject, notification } from '../jsonrpc/messages.js';
import { MetaKeys } from '../protocol/envelope.js';
import type { RequestContext } from '../protocol/request-context.js';
import { taskOwner } from './task-call.js';
import { modernDetailedTask } from './task-wire.js';

/**
 * The most task ids one listen request may name: as many as one caller may keep by default
 * (stores bound tasks per owner at 100). Each id costs a read of the store, and listen requests
 * take no admission slot, so their number must be bounded here.
 */
export const MAX_LISTENED_TASKS = 100;

/** The requested tasks the caller owns, as they are now (unknown and foreign ones are left out silently). */
export async function acceptedTasks(rc: RequestContext): Promise<TaskRecord[] | undefined> {
  const requested = isObject(rc.params.notifications) ? rc.params.notifications.taskIds : undefined;
  if (requested === undefined) return undefined;
  if (!Array.isArray(requested) || !requested.every((id) => typeof id === 'string')) {
    throw invalidParams('taskIds must be a list of task ids');
  }
  const wanted = new Set(requested as string[]);
  if (wanted.size > MAX_LISTENED_TASKS) {
    throw invalidParams(`taskIds may name at most ${MAX_LISTENED_TASKS} tasks`);
  }
  const { tasks } = rc.session.server;
  const owner = taskOwner(rc);
  const accepted: TaskRecord[] = [];
  for (const taskId of wanted) {
    if (rc.cancellation.aborted) break;
    const record = await tasks.store.get(taskId);
    if (record && record.owner === owner) accepted.push(record);
  }
  return accepted;
}

/** What a notification shows of a task: two records with the same one need not be told twice. */
function shown(record: TaskRecord): string {
  return JSON.stringify(modernDetailedTask(record));
}

/**
 * Send each change of the accepted tasks on the listen stream, and, when changes from other
 * replicas may have been missed, each task that differs from what was last told (read from the
 * store again). Returns the function that stops.
 */
export function watchTasks(rc: RequestContext, accepted: readonly TaskRecord[]): () => void {
  if (accepted.length === 0) return () => {};
  const { tasks } = rc.session.server;
  const owner = taskOwner(rc);
  // What the client knows of each task: as accepted, then as last told.
  const known = new Map(accepted.map((record) => [record.taskId, shown(record)]));
  const tell = (record: TaskRecord) => {
    const now = shown(record);
    if (rc.cancellation.aborted || known.get(record.taskId) === now) return;
    known.set(record.taskId, now);
    rc.notify(
      notification('notifications/tasks', {
        ...modernDetailedTask(record),
        _meta: { [MetaKeys.subscriptionId]: rc.id },
      }),
    );
  };
  const stopChanges = tasks.onChange((record) => {
    if (known.has(record.taskId)) tell(record);
  });
  const stopMissed = tasks.onMissedChanges(() => {
    void (async () => {
      for (const taskId of known.keys()) {
        if (rc.cancellation.aborted) return;
        // A store away again: the next resumption reads again; polls still see the truth.
        const record = await tasks.store.get(taskId).catch(() => undefined);
        if (record && record.owner === owner) tell(record);
      }
    })();
  });
  return () => {
    stopChanges();
    stopMissed();
  };
}
