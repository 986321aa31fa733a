/**
 * The blocking 2025-11-25 `tasks/result` requests of each session, one per task. The request
 * takes no admission slot over HTTP (it waits, possibly for hours), so its number is bounded
 * here: a later `tasks/result` for a task the session already waits on replaces the earlier one
 * (a client that lost its connection and asks again gets its answer), and the earlier request is
 * answered -32600. With at most `maxPerOwner` tasks per session, a session holds at most that
 * many waiting requests.
 *
 * With replicas sharing the tasks, the same session's two requests may reach two replicas: the
 * wait is then also claimed through the task relay (`TaskEngine.claimWait`), so a later wait on
 * any replica supersedes the earlier one with the same -32600, and a wait whose claim cannot be
 * recorded (Redis away) fails rather than quietly holding the rule per replica only. The claim
 * is per task, which is per session only when the session owns the task (it has an id): a
 * request without one (stateless HTTP, stdio) is a session of its own whose tasks are its
 * principal's, so no other request ever shares its wait, and it claims nothing (with Redis as
 * without, two such requests for one task both wait).
 */
import { ErrorCode } from '@cloudg/core';
import { ProtocolError } from '../jsonrpc/errors.js';
import type { Session } from '../protocol/session.js';
import type { TaskEngine } from './task-engine.js';

const waiting = new WeakMap<Session, Map<string, AbortController>>();

export interface ResultWait {
  /** Aborted by the request's own cancellation or by a later wait on the same task. */
  signal: AbortSignal;
  /** Leave the table (the wait ended either way). */
  done(): void;
}

function superseded(): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, 'Superseded by a later tasks/result for the same task');
}

/**
 * Register the request's wait on `taskId`, ending any earlier one of the same session, here and
 * (through `tasks`' relay) on every other replica. Rejects when the claim cannot be recorded.
 */
export async function waitForResult(
  session: Session,
  taskId: string,
  request: AbortSignal,
  tasks: TaskEngine,
): Promise<ResultWait> {
  const mine = waiting.get(session) ?? new Map<string, AbortController>();
  waiting.set(session, mine);
  mine.get(taskId)?.abort(superseded());
  const controller = new AbortController();
  mine.set(taskId, controller);
  const follow = () => controller.abort(request.reason);
  if (request.aborted) follow();
  else request.addEventListener('abort', follow, { once: true });
  const leave = () => {
    request.removeEventListener('abort', follow);
    if (mine.get(taskId) === controller) mine.delete(taskId);
  };
  let release: () => void = () => {};
  try {
    if (session.id !== undefined)
      release = await tasks.claimWait(taskId, () => controller.abort(superseded()));
  } catch (error) {
    leave();
    throw error;
  }
  return {
    signal: controller.signal,
    done: () => {
      leave();
      release();
    },
  };
}
