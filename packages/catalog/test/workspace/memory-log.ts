/**
 * The shared workspace's log port in memory, for tests of several workspaces sharing one log
 * (the Redis implementation is tested in @cloudg/redis): a lease one holder at a time, and a
 * compaction that keeps what the snapshot replaced where a test can look at it.
 */
import type { LogHead, WorkspaceLease, WorkspaceLog, WorkspaceOperation } from '../../src/index.js';

export class MemoryLog implements WorkspaceLog {
  /** The operations after the snapshot (`base`). */
  readonly entries: WorkspaceOperation[] = [];
  /** Every operation ever appended, compaction or not: the whole log. */
  readonly appended: WorkspaceOperation[] = [];
  base = 0;
  snapshotOps: WorkspaceOperation[] = [];
  leasesTaken = 0;
  #holder: symbol | undefined;

  async head(): Promise<LogHead> {
    const seq = this.base + this.entries.length;
    return { seq, epoch: seq > 0 ? 'memory' : '', base: this.base };
  }
  async read(after: number) {
    const from = Math.max(after, this.base);
    return this.entries.slice(from - this.base).map((operation, i) => ({ seq: from + i + 1, operation }));
  }
  async snapshot() {
    return { seq: this.base, operations: [...this.snapshotOps] };
  }
  async lease(signal: AbortSignal): Promise<WorkspaceLease> {
    while (this.#holder) {
      signal.throwIfAborted();
      await new Promise((r) => setTimeout(r, 1));
    }
    const me = Symbol('lease');
    this.#holder = me;
    this.leasesTaken += 1;
    return {
      append: async (operations) => {
        this.entries.push(...operations);
        this.appended.push(...operations);
        return this.head();
      },
      compact: async (seq, operations) => {
        this.entries.splice(0, seq - this.base);
        this.base = seq;
        this.snapshotOps = [...operations];
      },
      release: async () => {
        if (this.#holder === me) this.#holder = undefined;
      },
    };
  }
  watch(): () => void {
    return () => {};
  }
}
