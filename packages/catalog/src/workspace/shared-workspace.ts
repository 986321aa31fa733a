/**
 * One replica's side of a workspace shared through a `WorkspaceLog` (issue 20).
 *
 * Design: replicas share the *operations* on the workspace (load this path under this name, use,
 * unload, snapshot, triage decisions), not the datasets. Each replica applies the log, in log
 * order, to its own in-memory workspace, so asset data never travels through the shared store
 * and a replica's queries stay in-process; the price is that a loaded path must be readable from
 * every replica.
 *
 * Order: a call that may change the workspace (a tool with the `write_state` capability) takes
 * the log's lease, applies what it has not applied yet, runs, and appends the operations it made
 * before giving the lease up. So writers are serialised across replicas and each one runs on the
 * state every earlier write left: two loads of one name on two replicas resolve as they would in
 * one process (the second is told the name exists), and every replica replays the same order.
 * Calls that hold no lease while they work (live collection, scans) make their change to the
 * workspace the same way, in a `Workspace.exclusive` section once their slow part is done.
 *
 * Consistency: every call first asks the log for its head (one round trip) and applies what is
 * missing before it runs, so a call that starts after a change returned, on any replica, sees it
 * (read-your-writes and monotonic reads across replicas). Change notifications to listeners of a
 * replica that received no call arrive when it hears of the append (watch) and at the latest after
 * one poll interval (default 1 s), or from the replica that made the change through a change
 * fan-out (see `announceReplayed`).
 *
 * Eviction (`max_datasets`): one more decision the writer makes and the log carries, so that
 * replicas whose own preloads differ, or that rebuilt from a snapshot, hold the same datasets.
 * Under the lease, after its change, the writer evicts the oldest inactive datasets made through
 * the log beyond the limit and appends each as an `unload` with reason `evicted`; no replica
 * evicts on its own what it applies. The limit counts datasets made through the log only: a
 * replica's own preloads (`--dataset`, `--restore-live`) are outside the log, so they neither
 * count (the writer's decision would then depend on which replica writes) nor are evicted.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { CallInfo, CallResult, Middleware, NextFn } from '@cloudg/core';
import type { Dataset } from '../dataset/dataset.js';
import { removeDroppedFiles, storedFile } from '../live/stored-files.js';
import { compactOperations, createdDataset } from './compact-operations.js';
import type { WorkspaceOperation } from './operations.js';
import type { LoggedOperation, LogHead, WorkspaceLease, WorkspaceLog } from './shared-log.js';
import type { Workspace } from './workspace.js';

export interface SharedWorkspaceOptions {
  /** Milliseconds between checks of the log when nothing announced a change. Default 1000. */
  pollMs?: number;
  /**
   * Tell this replica's change listeners about operations it applies from the log (default true).
   * False where a change fan-out (RedisChangeFanout) already carries each change from the replica
   * that made it to every listener: announcing the replay too would tell them once per replica.
   */
  announceReplayed?: boolean;
  /** Told of an operation this replica could not apply (it goes on without it, as the others did). */
  onSkipped?: (entry: LoggedOperation, error: unknown) => void;
  /** Told when the log was lost and begun again (see LogHead.epoch). */
  onLogReset?: () => void;
  /**
   * Compact the log (when it can be) once it holds this many operations beyond its snapshot:
   * the next writer replaces them, under its lease, by those still in effect (up to what its
   * replica had applied when it took the lease; see `#compactIfDue`). Default 1000.
   */
  compactAfter?: number;
  /**
   * Compact sooner, once the log holds this many live collections and scan results beyond its
   * snapshot: each is a file in the shared output directory, and a compaction deletes those of
   * datasets since unloaded, replaced or evicted. Default 32.
   */
  compactAfterFiles?: number;
  /** Told when this replica was behind the log's snapshot and rebuilt its datasets from it. */
  onRebuilt?: (seq: number) => void;
  /** Told of a compaction this replica made: the seq it covers. */
  onCompacted?: (seq: number) => void;
}

/** Runs functions one at a time, in the order they were queued. */
class Queue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const next = this.#tail.then(fn, fn);
    this.#tail = next.catch(() => {});
    return next;
  }
}

export class SharedWorkspace {
  readonly workspace: Workspace;
  readonly log: WorkspaceLog;
  readonly #pollMs: number;
  readonly #onSkipped: SharedWorkspaceOptions['onSkipped'];
  readonly #onLogReset: SharedWorkspaceOptions['onLogReset'];
  readonly #onRebuilt: SharedWorkspaceOptions['onRebuilt'];
  readonly #compactAfter: number;
  readonly #compactAfterFiles: number;
  /**
   * Datasets made through the log, by this replica's tools or by applying the log (not its own
   * preloads): a rebuild replaces them, and they are the ones `max_datasets` counts. Held as
   * objects, not names: a name can hold a preload on one replica and the log's dataset on
   * another, or first one and then the other.
   */
  readonly #fromLog = new WeakSet<Dataset>();
  /**
   * Datasets an operation made outside a writer created here, not in the log yet (see
   * `#appendAlone`): a rebuild before its append must not drop them.
   */
  readonly #unshared = new WeakSet<Dataset>();
  /** The generation id (`gen`) of each dataset made through the log, where its operation had one. */
  readonly #gens = new WeakMap<Dataset, string>();
  /** Seqs (beyond the snapshot) of applied operations that name a stored file (compactAfterFiles). */
  #files: number[] = [];
  /** The log's base as this replica last saw it. */
  #base = 0;
  readonly #onCompacted: SharedWorkspaceOptions['onCompacted'];
  /** Applying the log, one batch at a time. */
  readonly #apply = new Queue();
  /** This replica's writers, one at a time (each then waits for the shared lease). */
  readonly #writers = new Queue();
  /**
   * The running writer, seen from the calls it makes: an `exclusive` change made there is
   * already under its lease (work it left running after it ended is not).
   */
  readonly #inside = new AsyncLocalStorage<symbol>();
  #running: symbol | undefined;
  /** See SharedWorkspaceOptions.announceReplayed; set it before serving. */
  announceReplayed: boolean;
  #applied = 0;
  /** The log's epoch this replica's seqs belong to; undefined before it first looked. */
  #epoch: string | undefined;
  #pending: WorkspaceOperation[] | undefined;
  #stops: (() => void)[] = [];

  constructor(workspace: Workspace, log: WorkspaceLog, options: SharedWorkspaceOptions = {}) {
    this.workspace = workspace;
    this.log = log;
    this.#pollMs = options.pollMs ?? 1000;
    this.#onSkipped = options.onSkipped;
    this.#onLogReset = options.onLogReset;
    this.#onRebuilt = options.onRebuilt;
    this.#onCompacted = options.onCompacted;
    this.#compactAfter = options.compactAfter ?? 1000;
    this.#compactAfterFiles = options.compactAfterFiles ?? 32;
    this.announceReplayed = options.announceReplayed ?? true;
  }

  /** The seq of the last operation this replica applied (or made). */
  get applied(): number {
    return this.#applied;
  }

  /**
   * Apply the log as it stands (a replica started later catches up here), then follow it:
   * announced appends at once, and a poll in case an announcement was missed.
   */
  async start(): Promise<void> {
    // Before anything is applied: what the log loads is evicted only by the log's own evictions.
    this.#stops.push(this.workspace.delegateEviction((dataset) => this.#fromLog.has(dataset)));
    this.#stops.push(
      this.workspace.recordOperations((recorded) => {
        const op = this.#withOwner(withGeneration(recorded));
        // Made here and now: the dataset it created is the one under its name.
        this.#noteMade(op, undefined);
        // A writer of this replica is running: its operations go out with its own.
        if (this.#pending) {
          this.#pending.push(op);
          return;
        }
        const made = this.#current(createdDataset(op));
        if (made) this.#unshared.add(made);
        return this.#appendAlone(op).finally(() => {
          if (made) this.#unshared.delete(made);
        });
      }),
    );
    this.#stops.push(this.workspace.delegateExclusive((change, signal) => this.#locked(signal, change)));
    this.#stops.push(
      this.workspace.delegateGenerations((a, b) => {
        const gen = this.#gens.get(a);
        return gen !== undefined && gen === this.#gens.get(b);
      }),
    );
    await this.catchUp();
    this.#stops.push(this.log.watch(() => void this.catchUp().catch(() => {})));
    const timer = setInterval(() => void this.catchUp().catch(() => {}), this.#pollMs);
    timer.unref?.();
    this.#stops.push(() => clearInterval(timer));
  }

  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  /** Apply every operation the log holds beyond what this replica has. */
  catchUp(): Promise<void> {
    return this.#apply.run(async () => {
      const head = await this.log.head();
      this.#follow(head.epoch);
      this.#base = Math.max(this.#base, head.base ?? 0);
      if (head.seq <= this.#applied) return;
      let rebuild = (head.base ?? 0) > this.#applied;
      for (let tries = 1; ; tries += 1) {
        // After a few rebuilds in a row, a missing file is skipped as any other failure.
        const lenient = tries >= REBUILDS;
        if (rebuild && !(await this.#rebuild(lenient))) continue;
        const entries = await this.log.read(this.#applied);
        // Compacted between the head and the read: what came between is only in the snapshot.
        rebuild = (entries[0]?.seq ?? 0) > this.#applied + 1;
        if (rebuild) continue;
        for (const entry of entries) {
          if (entry.seq <= this.#applied) continue;
          // A compaction went past this entry while this replica applied the batch, and deleted
          // the file it names: the operations read are no longer the log's (second review, Q1).
          rebuild = await this.#replay(entry, lenient ? undefined : entry.seq);
          if (rebuild) break;
          this.#applied = entry.seq;
          if (storedFile(entry.operation) !== undefined) this.#files.push(entry.seq);
        }
        if (!rebuild) return;
      }
    });
  }

  /**
   * Apply one operation; a failure is skipped (reported to `onSkipped`), as the other replicas
   * went on without it too, except when the operation's stored file is missing and the log was
   * compacted up to `compactedAt` or beyond meanwhile: the compaction deleted it, and the caller
   * rebuilds from the snapshot instead (true).
   */
  async #replay(entry: LoggedOperation, compactedAt?: number): Promise<boolean> {
    const operation = entry.operation;
    // The writer evicted a dataset the log made; here that name may be this replica's own.
    if (operation.op === 'unload' && operation.reason === 'evicted' && !this.#madeByLog(operation.name))
      return false;
    // Nothing to unload here (a preload a snapshot's unload names, already gone): no warning.
    if (operation.op === 'unload' && !this.workspace.has(operation.name)) return false;
    // A scan of one replica's own dataset is not one of the log's dataset of that name (nor the
    // other way round): each keeps its own findings.
    if (
      operation.op === 'findings' &&
      operation.own !== undefined &&
      this.workspace.has(operation.dataset) &&
      operation.own === this.#madeByLog(operation.dataset)
    )
      return false;
    const before = this.#current(createdDataset(operation));
    try {
      await this.workspace.replay(operation, { silent: !this.announceReplayed });
    } catch (error) {
      if (compactedAt !== undefined && storedFile(operation) !== undefined && isMissing(error)) {
        const head = await this.log.head();
        if (head.epoch === this.#epoch && (head.base ?? 0) >= compactedAt) return true;
      }
      this.#onSkipped?.(entry, error);
    } finally {
      // Even after a failure part-way: a dataset it added is the log's.
      this.#noteMade(operation, before);
    }
    return false;
  }

  /** A `findings` operation stamped with whether its dataset is this replica's own (see there). */
  #withOwner(operation: WorkspaceOperation): WorkspaceOperation {
    if (operation.op !== 'findings') return operation;
    return { ...operation, own: !this.#madeByLog(operation.dataset) };
  }

  #current(name: string | undefined): Dataset | undefined {
    return name !== undefined && this.workspace.has(name) ? this.workspace.get(name) : undefined;
  }

  #madeByLog(name: string): boolean {
    const dataset = this.#current(name);
    return dataset !== undefined && this.#fromLog.has(dataset);
  }

  /** Mark the dataset `operation` created as the log's, unless it is still `before` (it failed). */
  #noteMade(operation: WorkspaceOperation, before: Dataset | undefined): void {
    const made = this.#current(createdDataset(operation));
    if (made === undefined || made === before) return;
    this.#fromLog.add(made);
    if ('gen' in operation && operation.gen !== undefined) this.#gens.set(made, operation.gen);
  }

  /**
   * The log refused operations this replica made (the lease lost): the datasets they created are
   * in no other replica and no snapshot, so they stay this replica's own, as its preloads do,
   * rather than go unannounced at its next rebuild. The caller reports the refusal.
   */
  #keepOwn(refused: readonly WorkspaceOperation[]): void {
    for (const operation of refused) {
      const made = this.#current(createdDataset(operation));
      if (made === undefined) continue;
      this.#fromLog.delete(made);
      this.#gens.delete(made);
    }
  }

  /**
   * Behind the log's snapshot (started late, or asleep through a compaction): the operations it
   * missed are gone, so the datasets it has from the log are dropped and the snapshot, which
   * gives the whole log's state, is applied in their place. Its own preloads stay, and so does a
   * dataset an operation of its own made that is not in the log yet (`#unshared`): that
   * operation is appended after the rebuild, and every replica adds its dataset then.
   *
   * False when a later compaction deleted a file the snapshot names while it was applied (the
   * caller rebuilds again); `lenient` skips such an operation instead.
   */
  async #rebuild(lenient = false): Promise<boolean> {
    if (!this.log.snapshot) return true;
    const snapshot = await this.log.snapshot();
    for (const dataset of this.workspace.datasets())
      if (this.#fromLog.has(dataset) && !this.#unshared.has(dataset))
        await this.workspace.replay({ op: 'unload', name: dataset.name }, { silent: true });
    for (const [i, operation] of snapshot.operations.entries()) {
      const entry = { seq: snapshot.seq - snapshot.operations.length + i + 1, operation };
      if (await this.#replay(entry, lenient ? undefined : snapshot.seq + 1)) return false;
    }
    this.#applied = snapshot.seq;
    this.#base = Math.max(this.#base, snapshot.seq);
    this.#files = [];
    this.#onRebuilt?.(snapshot.seq);
    return true;
  }

  /**
   * Replace the log up to what this replica has applied by the operations still in effect, when
   * the log holds `compactAfter` operations beyond its snapshot there, or `compactAfterFiles`
   * that name a stored file; then delete the stored files only dropped operations named. Called
   * under the lease as soon as it is taken, in the apply queue (so nothing is applied
   * meanwhile), before the catch-up: the compaction point is what this replica had followed of
   * the log when the call came (`followed`, before the catch-up it makes before waiting for the
   * lease), never an append it had not seen yet, nor its own change to come, so the other
   * replicas, which follow the log alike, are past it unless they lag behind this one, and go
   * on reading after it instead of rebuilding. The snapshot is worked out from the log's
   * operations alone (`compactOperations`). A failure leaves the log as it was.
   */
  async #compactIfDue(lease: WorkspaceLease, followed: number): Promise<void> {
    if (!lease.compact || !this.log.snapshot) return;
    // Never past what this replica applied (a rebuild or a new epoch since may have lowered it).
    const point = Math.min(followed, this.#applied);
    this.#files = this.#files.filter((seq) => seq > this.#base);
    if (point - this.#base < this.#compactAfter && this.#files.length < this.#compactAfterFiles) return;
    // What this replica applied must be of this log, and past its snapshot (else it rebuilds first).
    const head = await this.log.head();
    if (head.epoch !== this.#epoch || (head.base ?? 0) > point || head.seq < point) return;
    const snapshot = await this.log.snapshot();
    if (snapshot.seq > point) return;
    const rest = await this.log.read(snapshot.seq);
    const operations = [
      ...snapshot.operations,
      ...rest.filter((e) => e.seq > snapshot.seq && e.seq <= point).map((e) => e.operation),
    ];
    const kept = compactOperations(operations);
    await lease.compact(point, kept);
    this.#base = point;
    this.#files = [];
    this.#onCompacted?.(point);
    await removeDroppedFiles(this.workspace, operations, kept);
  }

  /**
   * A log begun again (Redis lost its data) counts from the start: this replica keeps its
   * workspace and applies the new log on top of it, as every replica does.
   */
  #follow(epoch: string): void {
    if (this.#epoch !== undefined && epoch !== this.#epoch) {
      this.#applied = 0;
      this.#base = 0;
      this.#files = [];
      this.#onLogReset?.();
    }
    this.#epoch = epoch;
  }

  /** The layer middleware: reads catch up first; writes run under the lease and are logged. */
  readonly middleware: Middleware<Workspace> = async (info, next) => {
    if (changesShared(info)) return this.#write(info, next);
    await this.catchUp();
    const result = await next(info);
    // A live call that joined another replica's collection names a dataset that replica appended
    // before answering: applied now, so this replica's next call finds it at once.
    if (info.kind === 'tool' && info.spec.capabilities.has('cloud_access')) await this.catchUp();
    return result;
  };

  /**
   * An operation made outside a writer and outside an `exclusive` section (none of the tools
   * does that; kept so such a change still reaches the others): appended on its own under the
   * lease, after applying what came before. Its effect came first on this replica.
   */
  #appendAlone(operation: WorkspaceOperation): Promise<void> {
    return this.#locked(new AbortController().signal, async () => {
      this.#pending?.push(operation);
    });
  }

  /**
   * Append operations this replica already made, and count them applied. The append itself runs
   * in the apply queue: a catch-up in the background (a poll, an announcement) whose read of the
   * head came after the append would otherwise apply them here a second time.
   */
  #appendApplied(lease: WorkspaceLease, made: readonly WorkspaceOperation[]): Promise<LogHead> {
    return this.#apply.run(async () => {
      const head = await lease.append(made);
      this.#follow(head.epoch);
      this.#applied = head.seq;
      this.#base = Math.max(this.#base, head.base ?? 0);
      made.forEach((op, i) => {
        if (storedFile(op) !== undefined) this.#files.push(head.seq - made.length + i + 1);
      });
      return head;
    });
  }

  /**
   * `made` (operations of this replica, about to be appended under the lease, this replica at the
   * log's head) followed by the evictions they call for: the writer's decision, which every
   * replica applies (see the header). Synchronous, so nothing else is recorded in between.
   */
  #evictAfter(made: WorkspaceOperation[]): WorkspaceOperation[] {
    this.#pending = made;
    try {
      this.workspace.evictExcess();
      return this.#pending;
    } finally {
      this.#pending = undefined;
    }
  }

  #write(info: CallInfo<Workspace>, next: NextFn<Workspace>): Promise<CallResult> {
    return this.#locked(info.context.signal, () => next(info));
  }

  /**
   * Run `change` as this replica's writer: one at a time here, under the log's lease across
   * replicas, on the log's state (caught up first, and the log compacted when due), then append
   * what it changed. What it changed is shared even when it then failed: this replica has it.
   */
  #locked<T>(signal: AbortSignal | undefined, change: () => Promise<T>): Promise<T> {
    // A tool that writes state asking for an exclusive change: its operations go with its own.
    const store = this.#inside.getStore();
    if (store !== undefined && store === this.#running) return change();
    return this.#writers.run(() => {
      const writer = Symbol('writer');
      this.#running = writer;
      return this.#inside
        .run(writer, () => this.#underLease(signal, change))
        .finally(() => {
          if (this.#running === writer) this.#running = undefined;
        });
    });
  }

  async #underLease<T>(signal: AbortSignal | undefined, change: () => Promise<T>): Promise<T> {
    // What this replica had followed of the log when the call came: the compaction point.
    const followed = this.#applied;
    // Apply what is there before waiting for the lease: reading another replica's large
    // collection under it would hold every replica's changes up meanwhile. What is appended
    // after this is applied under the lease (below). A failure here is the lease's to report.
    await this.catchUp().catch(() => {});
    const lease = await this.log.lease(signal ?? new AbortController().signal);
    try {
      await this.#apply.run(() => this.#compactIfDue(lease, followed)).catch(() => {});
      await this.catchUp();
      this.#pending = [];
      let outcome: { result: T } | { error: unknown };
      try {
        outcome = { result: await change() };
      } catch (error) {
        outcome = { error };
      }
      const changed = this.#pending;
      this.#pending = undefined;
      if (changed.length > 0) {
        try {
          await this.#appendApplied(lease, this.#evictAfter(changed));
        } catch (error) {
          this.#keepOwn(changed);
          throw error;
        }
      }
      if ('error' in outcome) throw outcome.error;
      return outcome.result;
    } finally {
      await lease.release();
    }
  }
}

/** How many rebuilds in a row one catch-up makes when compactions delete files under it. */
const REBUILDS = 3;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** `operation` with a new generation id when it creates a dataset (see `WorkspaceOperation`). */
function withGeneration(operation: WorkspaceOperation): WorkspaceOperation {
  if (createdDataset(operation) === undefined) return operation;
  if ('gen' in operation && operation.gen !== undefined) return operation;
  return { ...operation, gen: randomBytes(8).toString('hex') } as WorkspaceOperation;
}

/**
 * Calls that may change the shared workspace: tools that write state. Live collection (tools that
 * reach the cloud) is left out: holding the lease for a collection of minutes would stop every
 * replica's workspace changes meanwhile and keep an identical call from joining the running one
 * through the live guard. Its dataset is shared once collected (`Workspace.share`, which appends
 * under the lease on its own).
 */
function changesShared(info: CallInfo<Workspace>): boolean {
  const capabilities = info.spec.capabilities;
  return info.kind === 'tool' && capabilities.has('write_state') && !capabilities.has('cloud_access');
}
