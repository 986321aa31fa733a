/**
 * The tasks of one server: creating them, finishing them with the call's outcome, cancelling
 * them, and the questions a running task waits on. Records live in a `TaskStore` (in process by
 * default, shared when the operator gives one); the running work (its cancellation and the
 * questions it waits for) lives here, in the process that runs it. With a store shared by
 * replicas, a `TaskRelay` carries to the running replica the cancellations and answers that
 * arrive elsewhere, and brings every replica's changes to this one's listeners.
 *
 * Every lookup is by the caller's owner key (`taskOwner`): a task of another principal is reported
 * exactly like an unknown one (-32602), so nobody learns that someone else's task exists.
 */
import { randomUUID } from 'node:crypto';
import {
  type Cancellation,
  CancelledError,
  ErrorCode,
  type JsonObject,
  type JsonValue,
  MemoryTaskStore,
  type TaskPatch,
  type TaskRecord,
  type TaskRelay,
  type TaskSignal,
  type TaskStatus,
  type TaskStore,
} from '@cloudg/core';
import { ProtocolError } from '../jsonrpc/errors.js';

const ACTIVE: readonly TaskStatus[] = ['working', 'input_required'];

/** How long a task is kept after it is created: the longest live tool (two hours) and an hour to fetch its result. */
export const DEFAULT_TASK_TTL_MS = 3 * 60 * 60_000;
/** How often clients are asked to poll. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1_000;

export interface TaskEngineOptions {
  store?: TaskStore;
  /** Reaches the other replicas sharing `store` (cancellations, answers, changes). */
  relay?: TaskRelay;
  ttlMs?: number;
  pollIntervalMs?: number;
  now?: () => number;
}

/** What a finished call leaves in its task. */
export type TaskOutcome =
  | { kind: 'result'; result: JsonObject; status: 'completed' | 'failed' }
  | { kind: 'error'; error: JsonObject; message: string };

interface Running {
  cancellation: Cancellation;
  /** Questions waiting for an answer, by key, as they go on the wire. */
  pending: Map<string, JsonObject>;
  /** Who waits for each pending key. */
  waiters: Map<string, (answer: JsonValue) => void>;
  /** Writes of this task, one after the other, so the store sees them in order. */
  writes: Promise<unknown>;
  /** Stops the work when the task's time to live runs out. */
  expiry: NodeJS.Timeout;
  /** When the store forgets the task: the final write is retried until then. */
  deadline: number;
  /** Progress not written yet (only the latest counts), and the write of progress under way. */
  progress: Progress;
}

interface Progress {
  next: string | undefined;
  /** A progress write is scheduled or in flight: later reports only replace `next`. */
  busy: boolean;
  lastAt: number;
  timer: NodeJS.Timeout | undefined;
}

/** The first pause between attempts of a final write the store refused, and the longest. */
const FINAL_RETRY_FIRST_MS = 100;
const FINAL_RETRY_MAX_MS = 5_000;
/**
 * How long the outcome itself is tried before the task is recorded as failed instead: a store
 * out of reach for longer, or one that refuses this outcome for good, leaves a failed task
 * rather than one that looks alive until it expires.
 */
const FINAL_OUTCOME_RETRY_MS = 60_000;

export function taskNotFound(): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
}

export class TaskEngine {
  readonly store: TaskStore;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  private readonly now: () => number;
  private readonly running = new Map<string, Running>();
  /** Who hears of every change this process makes to a task (status notifications). */
  private readonly listeners = new Set<(record: TaskRecord) => void>();
  /** Callers of the handshake era's blocking `tasks/result`, woken on each change of their task. */
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly relay: TaskRelay | undefined;
  private stopRelay: () => void = () => {};
  /** Set on shutdown: final writes are not retried any more. */
  private closed = false;

  constructor(options: TaskEngineOptions = {}) {
    this.store = options.store ?? new MemoryTaskStore();
    this.ttlMs = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS;
    this.now = options.now ?? Date.now;
    this.relay = options.relay;
    if (this.relay) this.stopRelay = this.relay.listen((signal) => this.hear(signal));
  }

  /**
   * A new working task of `owner`, kept in the store before this resolves. `principal`, when the
   * owner is narrower than the principal (a session), is what the store bounds too.
   */
  async create(owner: string, cancellation: Cancellation, principal?: string): Promise<TaskRecord> {
    const now = this.now();
    const record: TaskRecord = {
      taskId: randomUUID(),
      owner,
      ...(principal === undefined ? {} : { principal }),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    await this.store.create(record);
    // Past its time to live a task is forgotten, so work still running for it would be wasted:
    // it is stopped then (a timer that does not keep the process alive).
    const expiry = setTimeout(() => {
      if (this.running.get(record.taskId) !== running) return;
      this.running.delete(record.taskId);
      cancellation.abort(new CancelledError('Task expired'));
    }, record.ttlMs);
    expiry.unref();
    const running: Running = {
      cancellation,
      pending: new Map(),
      waiters: new Map(),
      writes: Promise.resolve(),
      expiry,
      deadline: now + record.ttlMs,
      progress: { next: undefined, busy: false, lastAt: 0, timer: undefined },
    };
    this.running.set(record.taskId, running);
    return record;
  }

  /** The task, if `owner` created it; -32602 otherwise, the same for unknown and foreign. */
  async find(taskId: unknown, owner: string): Promise<TaskRecord> {
    if (typeof taskId !== 'string')
      throw new ProtocolError(ErrorCode.InvalidParams, 'taskId must be a string');
    const record = await this.store.get(taskId);
    if (!record || record.owner !== owner) throw taskNotFound();
    return record;
  }

  /**
   * Record the call's outcome, unless the task was cancelled (or expired) meanwhile. A store that
   * refuses the write (a shared store out of reach for a moment) is tried again, with growing
   * pauses: the outcome itself for a minute, then `failed` until the task's time to live runs out,
   * so a task whose call ended does not stay `working` for hours. Whatever happens, the task no
   * longer runs here once this settles.
   */
  async finish(taskId: string, outcome: TaskOutcome): Promise<void> {
    const running = this.running.get(taskId);
    const patch = (): TaskPatch =>
      outcome.kind === 'result'
        ? {
            status: outcome.status,
            result: outcome.result,
            inputRequests: undefined,
            lastUpdatedAt: this.now(),
          }
        : {
            status: 'failed',
            error: outcome.error,
            statusMessage: outcome.message,
            inputRequests: undefined,
            lastUpdatedAt: this.now(),
          };
    const fallback = (): TaskPatch => ({
      status: 'failed',
      error: { code: ErrorCode.InternalError, message: 'Internal error' },
      statusMessage: 'The outcome of the call could not be recorded',
      inputRequests: undefined,
      lastUpdatedAt: this.now(),
    });
    if (running) this.dropProgress(running);
    try {
      const deadline = running?.deadline ?? this.now() + this.ttlMs;
      const outcomeUntil = this.now() + FINAL_OUTCOME_RETRY_MS;
      let pause = FINAL_RETRY_FIRST_MS;
      for (;;) {
        try {
          await this.write(taskId, running, ACTIVE, this.now() < outcomeUntil ? patch() : fallback());
          return;
        } catch (error) {
          if (this.closed || this.now() + pause >= deadline) throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, pause).unref());
        pause = Math.min(pause * 2, FINAL_RETRY_MAX_MS);
      }
    } finally {
      if (running) clearTimeout(running.expiry);
      if (this.running.get(taskId) === running) this.running.delete(taskId);
      this.wake(taskId);
    }
  }

  /**
   * Cancel a task of `owner`: it becomes `cancelled` before this resolves and its call is
   * aborted. Resolves with the record as it is now and whether it had already finished.
   */
  async cancel(taskId: unknown, owner: string): Promise<{ record: TaskRecord; finished: boolean }> {
    const record = await this.find(taskId, owner);
    const running = this.running.get(record.taskId);
    const cancelled = await this.write(record.taskId, running, ACTIVE, {
      status: 'cancelled',
      statusMessage: 'The task was cancelled',
      inputRequests: undefined,
      lastUpdatedAt: this.now(),
    });
    if (!running) {
      // Running on another replica (or nowhere any more): the store already says cancelled, so
      // the work is told to stop. Sent again for a task that was cancelled before, in case the
      // first signal was lost; stopping twice is harmless.
      const now = cancelled ?? (await this.store.get(record.taskId)) ?? record;
      if (now.status === 'cancelled') await this.relay?.send({ kind: 'cancel', taskId: record.taskId });
    }
    if (!cancelled) return { record: (await this.store.get(record.taskId)) ?? record, finished: true };
    this.stop(record.taskId, running);
    return { record: cancelled, finished: false };
  }

  /**
   * Cancel every active task of `owner`, wherever it runs (the store says cancelled, the relay
   * stops the work on its replica): a 2025-11-25 session ended, and its tasks, which nobody can
   * reach any more, should not run on for hours. Best effort: a task the store cannot cancel now
   * expires with its time to live.
   */
  async cancelOwned(owner: string): Promise<void> {
    const records = await this.store.list(owner);
    for (const record of records) {
      if (!ACTIVE.includes(record.status)) continue;
      await this.cancel(record.taskId, owner).catch(() => undefined);
    }
  }

  /**
   * A progress report of a running task, shown as its status message. Reports are coalesced: one
   * write at a time, at most one per poll interval (nobody reads the status more often), each
   * with the latest message; a tool reporting in a tight loop costs the store nothing more.
   */
  progress(taskId: string, message: string): void {
    const running = this.running.get(taskId);
    if (!running) return;
    const progress = running.progress;
    progress.next = message;
    if (progress.busy) return;
    progress.busy = true;
    const flush = () => {
      progress.timer = undefined;
      const next = progress.next;
      progress.next = undefined;
      if (next === undefined || this.running.get(taskId) !== running) {
        progress.busy = false;
        return;
      }
      progress.lastAt = this.now();
      void this.write(taskId, running, ['working'], { statusMessage: next, lastUpdatedAt: progress.lastAt })
        .catch(() => undefined)
        .finally(() => {
          progress.busy = false;
          if (progress.next !== undefined) this.progress(taskId, progress.next);
        });
    };
    const wait = Math.min(
      Math.max(progress.lastAt + this.pollIntervalMs - this.now(), 0),
      this.pollIntervalMs,
    );
    if (wait === 0) flush();
    else {
      progress.timer = setTimeout(flush, wait);
      progress.timer.unref();
    }
  }

  /** Forget progress not written yet: the task is finishing or stopped. */
  private dropProgress(running: Running): void {
    clearTimeout(running.progress.timer);
    running.progress.timer = undefined;
    running.progress.next = undefined;
  }

  /**
   * Park questions in the task (status `input_required`) until the client answers them with
   * `tasks/update`; resolves with the answers by key. `signal` withdraws the questions.
   */
  waitForAnswers(
    taskId: string,
    questions: Record<string, JsonObject>,
    signal: AbortSignal,
  ): Promise<Record<string, JsonValue>> {
    const running = this.running.get(taskId);
    if (!running) return Promise.reject(new CancelledError('The task is no longer running'));
    const keys = Object.keys(questions);
    const answers: Record<string, JsonValue> = {};
    return new Promise((resolve, reject) => {
      const withdraw = () => {
        for (const key of keys) {
          running.pending.delete(key);
          running.waiters.delete(key);
        }
        this.publishQuestions(taskId, running);
        reject(signal.reason);
      };
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener('abort', withdraw, { once: true });
      let left = keys.length;
      for (const key of keys) {
        running.pending.set(key, questions[key] as JsonObject);
        running.waiters.set(key, (answer) => {
          answers[key] = answer;
          left -= 1;
          if (left === 0) {
            signal.removeEventListener('abort', withdraw);
            resolve(answers);
          }
        });
      }
      this.publishQuestions(taskId, running);
    });
  }

  /**
   * Mark a task as waiting for (or no longer waiting for) questions sent another way (the
   * handshake era sends them as requests); `open` is the number of questions still out.
   */
  markWaiting(taskId: string, open: number): void {
    const running = this.running.get(taskId);
    if (!running) return;
    void this.write(taskId, running, ACTIVE, {
      status: open > 0 ? 'input_required' : 'working',
      lastUpdatedAt: this.now(),
    });
  }

  /**
   * Answers from `tasks/update`: each one for a question still pending is delivered; the rest
   * (unknown keys, questions already answered) are ignored, as the extension asks.
   */
  async update(taskId: unknown, owner: string, responses: Record<string, unknown>): Promise<void> {
    const record = await this.find(taskId, owner);
    const running = this.running.get(record.taskId);
    if (running) return this.deliver(record.taskId, running, responses);
    // The replica running it takes the answers; a finished task has nobody waiting.
    if (this.relay && ACTIVE.includes(record.status)) {
      await this.relay.send({
        kind: 'answer',
        taskId: record.taskId,
        responses: responses as Record<string, JsonValue>,
      });
    }
  }

  private async deliver(taskId: string, running: Running, responses: Record<string, unknown>): Promise<void> {
    let delivered = false;
    for (const [key, answer] of Object.entries(responses)) {
      const waiter = running.waiters.get(key);
      if (!waiter) continue;
      running.waiters.delete(key);
      running.pending.delete(key);
      delivered = true;
      waiter(answer as JsonValue);
    }
    if (delivered) await this.publishQuestions(taskId, running);
  }

  /** Stop the local work of a task that is no longer active. */
  private stop(taskId: string, running: Running | undefined): void {
    this.running.delete(taskId);
    if (running) {
      clearTimeout(running.expiry);
      this.dropProgress(running);
    }
    running?.cancellation.abort(new CancelledError('Task cancelled'));
    this.wake(taskId);
  }

  /** What another replica sends: only the replica running a task acts on its cancel and answers. */
  private hear(signal: TaskSignal): void {
    if (signal.kind === 'changed') {
      this.emit(signal.record);
      this.wake(signal.record.taskId);
      return;
    }
    const running = this.running.get(signal.taskId);
    if (!running) return;
    if (signal.kind === 'cancel') {
      this.stop(signal.taskId, running);
      return;
    }
    // The answers reached the call even if the status write fails; the next write repairs it.
    void this.deliver(signal.taskId, running, signal.responses).catch(() => {});
  }

  /**
   * Become the one waiter for `taskId`'s result on every replica sharing the store, when the
   * relay keeps that rule (`superseded` is called if a later wait anywhere replaces this one);
   * resolves with the function that gives the claim up. Without a relay that does, the rule is
   * this process's alone (result-waiters.ts), which is all there is with an in-process store.
   */
  async claimWait(taskId: string, superseded: () => void): Promise<() => void> {
    return (await this.relay?.claimWait?.(taskId, superseded)) ?? (() => {});
  }

  /** Resolves once the task is finished (handshake era `tasks/result`), or rejects on `signal`. */
  async settled(taskId: string, owner: string, signal: AbortSignal): Promise<TaskRecord> {
    for (;;) {
      // Checked on every round: an abort between two rounds would otherwise go unheard.
      signal.throwIfAborted();
      const record = await this.find(taskId, owner);
      if (!ACTIVE.includes(record.status)) return record;
      // Woken by a change made here, or after a poll interval for a store other replicas write.
      await new Promise<void>((resolve, reject) => {
        const watchers = this.watchers.get(taskId) ?? new Set();
        this.watchers.set(taskId, watchers);
        const leave = () => {
          clearTimeout(timer);
          watchers.delete(done);
          if (watchers.size === 0) this.watchers.delete(taskId);
          signal.removeEventListener('abort', aborted);
        };
        const done = () => {
          leave();
          resolve();
        };
        // Rejected before anything resolves the promise: the wait really ends.
        const aborted = () => {
          leave();
          reject(signal.reason);
        };
        const timer = setTimeout(done, record.pollIntervalMs);
        watchers.add(done);
        signal.addEventListener('abort', aborted, { once: true });
      });
    }
  }

  /** Cancel every running task (the server shuts down). */
  cancelAll(): void {
    this.closed = true;
    this.stopRelay();
    for (const running of this.running.values()) {
      clearTimeout(running.expiry);
      this.dropProgress(running);
      running.cancellation.abort(new CancelledError('Server closing'));
    }
    this.running.clear();
  }

  private publishQuestions(taskId: string, running: Running): Promise<TaskRecord | undefined> {
    const open = running.pending.size > 0;
    return this.write(taskId, running, ACTIVE, {
      status: open ? 'input_required' : 'working',
      inputRequests: open ? Object.fromEntries(running.pending) : undefined,
      lastUpdatedAt: this.now(),
    });
  }

  private write(
    taskId: string,
    running: Running | undefined,
    from: readonly TaskStatus[],
    patch: TaskPatch,
  ): Promise<TaskRecord | undefined> {
    const run = async () => {
      const record = await this.store.transition(taskId, from, patch);
      if (record) {
        this.emit(record);
        // Listeners on other replicas hear it too; a change that does not travel is still in the
        // store for the next poll.
        this.relay?.send({ kind: 'changed', record }).catch(() => {});
      } else if (running && this.running.get(taskId) === running) {
        await this.checkStillActive(taskId, running);
      }
      return record;
    };
    if (!running) return run();
    const next = running.writes.then(run, run);
    running.writes = next.catch(() => undefined);
    return next;
  }

  /**
   * A write of a task running here was refused: if another replica finished it meanwhile (a
   * cancellation whose signal was lost, a lease that lapsed) or the store forgot it, the work is
   * stopped, since its outcome can no longer be recorded.
   */
  private async checkStillActive(taskId: string, running: Running): Promise<void> {
    const now = await this.store.get(taskId).catch(() => null);
    if (now === null || this.running.get(taskId) !== running) return;
    if (now === undefined || !ACTIVE.includes(now.status)) this.stop(taskId, running);
  }

  /**
   * Hear when changes made on other replicas may have been missed (the relay's connection is
   * back after a break): listeners read the tasks they follow again. Returns the function that
   * stops; nothing to hear without a relay that reports it.
   */
  onMissedChanges(listener: () => void): () => void {
    return this.relay?.onResumed?.(listener) ?? (() => {});
  }

  /** Hear of every change this process makes to a task; returns the function that stops it. */
  onChange(listener: (record: TaskRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(record: TaskRecord): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(record);
      } catch {
        // A listener that fails (a closed stream) must not stop the task's bookkeeping.
      }
    }
  }

  private wake(taskId: string): void {
    for (const watcher of [...(this.watchers.get(taskId) ?? [])]) watcher();
  }
}
