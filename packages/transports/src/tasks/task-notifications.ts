/**
 * `notifications/tasks` on a 2026 `subscriptions/listen` stream (optional in the extension): the
 * client names the tasks it wants to hear about in `notifications.taskIds`; the server agrees to
 * those the caller owns, acknowledges them, and sends the task as `tasks/get` would show it each
 * time it changes. A task changes on the replica running it (or the one that cancels it); with a
 * task relay shared by replicas, every replica hears those changes, so the stream may be held by
 * any of them.
 */
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

/** The requested task ids the caller owns (unknown and foreign ones are left out silently). */
export async function acceptedTaskIds(rc: RequestContext): Promise<string[] | undefined> {
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
  const accepted: string[] = [];
  for (const taskId of wanted) {
    if (rc.cancellation.aborted) break;
    const record = await tasks.store.get(taskId);
    if (record && record.owner === owner) accepted.push(taskId);
  }
  return accepted;
}

/** Send each change of the accepted tasks on the listen stream; returns the function that stops. */
export function watchTasks(rc: RequestContext, taskIds: readonly string[]): () => void {
  const watched = new Set(taskIds);
  if (watched.size === 0) return () => {};
  return rc.session.server.tasks.onChange((record) => {
    if (!watched.has(record.taskId) || rc.cancellation.aborted) return;
    rc.notify(
      notification('notifications/tasks', {
        ...modernDetailedTask(record),
        _meta: { [MetaKeys.subscriptionId]: rc.id },
      }),
    );
  });
}
