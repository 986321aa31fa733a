/** The in-process task store: a Map, bounded in count per owner, per principal and overall, and in age. */
import { RateLimitedError } from '../errors.js';
import { isTerminalStatus, type TaskPatch, type TaskRecord, type TaskStatus } from './task-record.js';
import type { TaskStore } from './task-store.js';

export interface MemoryTaskStoreOptions {
  /** Tasks one owner may keep at once. Default 100. */
  maxPerOwner?: number;
  /** Tasks one principal may keep at once, over all its owners (sessions). Default 1,000. */
  maxPerPrincipal?: number;
  /** Tasks kept overall. Default 10,000. */
  maxTasks?: number;
  now?: () => number;
}

export class MemoryTaskStore implements TaskStore {
  // Insertion order is creation order, which makes "oldest first" a walk from the start.
  private readonly records = new Map<string, TaskRecord>();
  private readonly maxPerOwner: number;
  private readonly maxPerPrincipal: number;
  private readonly maxTasks: number;
  private readonly now: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxPerOwner = options.maxPerOwner ?? 100;
    this.maxPerPrincipal = options.maxPerPrincipal ?? 1_000;
    this.maxTasks = options.maxTasks ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  async create(record: TaskRecord): Promise<void> {
    this.purgeExpired();
    const owned = () => [...this.records.values()].filter((r) => r.owner === record.owner);
    const principal = principalOf(record);
    const held = () => [...this.records.values()].filter((r) => principalOf(r) === principal);
    // Finished tasks make room first, oldest first; running ones are never dropped.
    if (owned().length >= this.maxPerOwner) this.dropOldestFinished(owned());
    if (held().length >= this.maxPerPrincipal) this.dropOldestFinished(held());
    if (this.records.size >= this.maxTasks) this.dropOldestFinished([...this.records.values()]);
    if (
      owned().length >= this.maxPerOwner ||
      held().length >= this.maxPerPrincipal ||
      this.records.size >= this.maxTasks
    ) {
      throw new RateLimitedError('Too many tasks are running; wait for one to finish or cancel one', {
        data: { maxPerOwner: this.maxPerOwner },
      });
    }
    this.records.set(record.taskId, structuredClone(record));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.live(taskId);
    return record ? structuredClone(record) : undefined;
  }

  async transition(
    taskId: string,
    from: readonly TaskStatus[],
    patch: TaskPatch,
  ): Promise<TaskRecord | undefined> {
    const record = this.live(taskId);
    if (!record || !from.includes(record.status)) return undefined;
    const next: TaskRecord = { ...record, ...patch };
    // A field set to undefined is removed, so a record stays plain JSON.
    for (const key of Object.keys(next) as (keyof TaskRecord)[])
      if (next[key] === undefined) delete next[key];
    this.records.set(taskId, next);
    return structuredClone(next);
  }

  async list(owner: string): Promise<TaskRecord[]> {
    this.purgeExpired();
    return [...this.records.values()].filter((r) => r.owner === owner).map((r) => structuredClone(r));
  }

  private live(taskId: string): TaskRecord | undefined {
    const record = this.records.get(taskId);
    if (record && this.expired(record)) {
      this.records.delete(taskId);
      return undefined;
    }
    return record;
  }

  private expired(record: TaskRecord): boolean {
    return this.now() > record.createdAt + record.ttlMs;
  }

  private purgeExpired(): void {
    for (const [id, record] of this.records) if (this.expired(record)) this.records.delete(id);
  }

  private dropOldestFinished(candidates: TaskRecord[]): void {
    const oldest = candidates.find((r) => isTerminalStatus(r.status));
    if (oldest) this.records.delete(oldest.taskId);
  }
}

/** Whom a record counts against: its principal, or its owner when that is the principal. */
function principalOf(record: TaskRecord): string {
  return record.principal ?? record.owner;
}
