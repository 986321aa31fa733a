/**
 * The blocking 2025-11-25 `tasks/result` requests of each session, one per task. The request
 * takes no admission slot over HTTP (it waits, possibly for hours), so its number is bounded
 * here: a later `tasks/result` for a task the session already waits on replaces the earlier one
 * (a client that lost its connection and asks again gets its answer), and the earlier request is
 * answered -32600. With at most `maxPerOwner` tasks per session, a session holds at most that
 * many waiting requests.
 */
import { ErrorCode } from '@cloudg/core';
import { ProtocolError } from '../jsonrpc/errors.js';
import type { Session } from '../protocol/session.js';

const waiting = new WeakMap<Session, Map<string, AbortController>>();

export interface ResultWait {
  /** Aborted by the request's own cancellation or by a later wait on the same task. */
  signal: AbortSignal;
  /** Leave the table (the wait ended either way). */
  done(): void;
}

/** Register the request's wait on `taskId`, ending any earlier one of the same session. */
export function waitForResult(session: Session, taskId: string, request: AbortSignal): ResultWait {
  const mine = waiting.get(session) ?? new Map<string, AbortController>();
  waiting.set(session, mine);
  mine
    .get(taskId)
    ?.abort(
      new ProtocolError(ErrorCode.InvalidRequest, 'Superseded by a later tasks/result for the same task'),
    );
  const controller = new AbortController();
  mine.set(taskId, controller);
  const follow = () => controller.abort(request.reason);
  if (request.aborted) follow();
  else request.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      request.removeEventListener('abort', follow);
      if (mine.get(taskId) === controller) mine.delete(taskId);
    },
  };
}
