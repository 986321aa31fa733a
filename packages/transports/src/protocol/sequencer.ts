/**
 * Ordering for connections that deliver messages one by one (stdio, the legacy SSE transport):
 * `initialize`, notifications and responses run in arrival order; every other request waits for
 * what came before it in that order, then runs concurrently, so `ping` and
 * `notifications/cancelled` still get through while a long call is in flight.
 */
import { isObject } from '../jsonrpc/messages.js';

function runsInline(message: unknown): boolean {
  if (!isObject(message)) return false;
  return message.method === 'initialize' || !('id' in message) || !('method' in message);
}

export class MessageSequencer {
  private tail: Promise<void> = Promise.resolve();
  private readonly tasks = new Set<Promise<void>>();

  submit(message: unknown, run: () => Promise<void>): void {
    const task = this.tail.then(run).catch(() => {});
    if (runsInline(message)) this.tail = task;
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  /** Wait for everything submitted so far, at most `timeoutMs`; true when all finished. */
  async drain(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const all = (async () => {
      while (this.tasks.size > 0) await Promise.all([...this.tasks]);
      return true as const;
    })();
    try {
      return await Promise.race([all, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
