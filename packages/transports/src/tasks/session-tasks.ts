/**
 * The 2025-11-25 tasks of a session that ended (DELETE, or expired idle): they belong to that
 * session alone, so nobody can read, answer or cancel them any more. They are cancelled rather
 * than left running, and holding their place among the owner's tasks, until their time to live.
 */
import type { McpProtocolServer } from '../protocol/server.js';
import { sessionTaskOwner } from './task-call.js';

export function cancelSessionTasks(server: McpProtocolServer, binding: string, sessionId: string): void {
  void server.tasks.cancelOwned(sessionTaskOwner(binding, sessionId)).catch((error: unknown) => {
    server.layer.logger.warn({ err: error }, "cancelling an ended session's tasks failed");
  });
}
