/**
 * Tasks in Redis, for @cloudg/core's TaskStore port, so a task made on one replica is read,
 * cancelled and finished from any. Under `<prefix>`:
 *
 * - `task:<id>`: a hash with the status (`s`, in clear so a script can bound an owner's tasks),
 *   a version (`v`, for compare-and-set), the replica running it (`r`), the owner's keyed digest
 *   (`o`) and the record itself (`b`), sealed with the vault key: a result names real assets
 *   under most profiles, and questions, progress and owners are the caller's. Redis expires the
 *   hash at the task's `createdAt + ttlMs`.
 * - `tasks:owner:<digest>`: the owner's task ids scored by creation time (bounded per owner and
 *   oldest first for `tasks/list`); ids whose hash has expired are dropped when it is read.
 * - `tasks:all`: every task id scored by its expiry, to bound the tasks kept overall (many
 *   owners: on 2025-11-25 each session is one).
 * - `tasks:principal:<digest>`: the task ids of one principal over all its owners (sessions),
 *   scored by expiry, to bound them.
 * - `tasks:alive:<replica>`: the lease of a replica running tasks, renewed a third of the way
 *   through and as soon as its connection is back after Redis was away. A task still active whose
 *   replica's lease is missing is marked failed by a reader once the lease has stayed missing for
 *   a renewal period since a reader first found it so (`tasks:gone:<replica>`, Redis's clock): a
 *   lease that lapsed during an outage, of a replica that lives, is renewed before then.
 *
 * A status change reads, applies the patch here (the record is sealed, so a script cannot), and
 * writes back only if the version is unchanged, retrying otherwise: `transition` is atomic, as the
 * port requires.
 *
 * The sealed body names its task and its version, and holds the status a replica believes: the
 * clear `s` and `v` serve the scripts only. So someone who can write to Redis but lacks the vault
 * key cannot put an earlier body of the task back under the current version (refused, the task
 * reads as unknown), nor make the status say something its record does not. Putting back the
 * whole earlier hash, version and all, cannot be told from a Redis that lost writes in a failover,
 * so it is read as that earlier state (docs/replicas.md names it).
 *
 * Each open question also gets a random id of its own, kept in the sealed body (`q`, by key) and
 * in the memory of the replica that asked it: an answer relayed from another replica names the id
 * it was given for (task-relay.ts), so a copy of it cannot answer a later question that reuses the
 * key (tools choose keys such as `confirm`, and a rerun asks the same ones again).
 */
import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  isTerminalStatus,
  RateLimitedError,
  type TaskPatch,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from '@cloudg/core';
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { SharedStateUnavailableError, shared } from './errors.js';
import { LuaScript } from './script.js';

const STATE = 'tasks';
const LABEL = 'task-record';

// KEYS: task hash, owner index, the runner's lease, the index of all tasks (scored by expiry),
// the principal's index (scored by expiry). ARGV: task key prefix, id, status, sealed body,
// runner, owner digest, createdAt, time to live (ms), max per owner, lease (ms), max overall, now
// (ms), owner index prefix, principal index prefix, principal digest, max per principal. 0 when
// the owner, its principal (over all its sessions), or everyone, keeps too many. Finished tasks
// make room, oldest first; running ones never. The
// lease is taken in the same step, so a task is never recorded under a runner that looks dead
// (a Redis restarted without its data has forgotten the lease).
const CREATE = new LuaScript(`
local base, id, max, maxAll = ARGV[1], ARGV[2], tonumber(ARGV[9]), tonumber(ARGV[11])
local maxPrincipal = tonumber(ARGV[16])
local function finished(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end
local function drop(other)
  local f = redis.call('HMGET', base .. other, 'o', 'p')
  redis.call('DEL', base .. other)
  if f[1] then redis.call('ZREM', ARGV[13] .. f[1], other) end
  if f[2] then redis.call('ZREM', ARGV[14] .. f[2], other) end
  redis.call('ZREM', KEYS[4], other)
end
-- Room in an index scored by expiry: the oldest hundred are enough to find a finished task,
-- since tasks finish in about creation order.
local function full(index, limit)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', ARGV[12])
  if redis.call('ZCARD', index) >= limit then
    for _, other in ipairs(redis.call('ZRANGE', index, 0, 99)) do
      local s = redis.call('HGET', base .. other, 's')
      if not s then redis.call('ZREM', index, other)
      elseif finished(s) then
        drop(other)
        break
      end
    end
  end
  return redis.call('ZCARD', index) >= limit
end
local live = {}
for _, other in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if redis.call('EXISTS', base .. other) == 1 then live[#live + 1] = other
  else redis.call('ZREM', KEYS[2], other) end
end
local count = #live
if count >= max then
  for _, other in ipairs(live) do
    if finished(redis.call('HGET', base .. other, 's')) then
      drop(other)
      count = count - 1
      break
    end
  end
end
if count >= max then return 0 end
if full(KEYS[5], maxPrincipal) then return 0 end
if full(KEYS[4], maxAll) then return 0 end
redis.call('SET', KEYS[3], '1', 'PX', ARGV[10])
redis.call('HSET', KEYS[1], 's', ARGV[3], 'v', 1, 'b', ARGV[4], 'r', ARGV[5], 'o', ARGV[6], 'p', ARGV[15])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
redis.call('ZADD', KEYS[2], ARGV[7], id)
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[8]) then redis.call('PEXPIRE', KEYS[2], ARGV[8]) end
redis.call('ZADD', KEYS[4], tonumber(ARGV[12]) + tonumber(ARGV[8]), id)
redis.call('ZADD', KEYS[5], tonumber(ARGV[12]) + tonumber(ARGV[8]), id)
if redis.call('PTTL', KEYS[5]) < tonumber(ARGV[8]) then redis.call('PEXPIRE', KEYS[5], ARGV[8]) end
return 1
`);

// KEYS: task hash. ARGV: alive key prefix. {status, version, body, runner alive (1/0), runner}
// or nil.
const READ = new LuaScript(`
local f = redis.call('HMGET', KEYS[1], 's', 'v', 'b', 'r')
if not f[1] then return nil end
local alive = 1
if f[4] and f[4] ~= '' then alive = redis.call('EXISTS', ARGV[1] .. f[4]) end
return {f[1], f[2], f[3], alive, f[4] or ''}
`);

// KEYS: owner index. ARGV: task key prefix, alive key prefix. Flat {id, status, version, body,
// alive, runner} per live task, oldest first; expired ids are dropped from the index.
const LIST = new LuaScript(`
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local f = redis.call('HMGET', ARGV[1] .. id, 's', 'v', 'b', 'r')
  if f[1] then
    local alive = 1
    if f[4] and f[4] ~= '' then alive = redis.call('EXISTS', ARGV[2] .. f[4]) end
    out[#out + 1] = id
    out[#out + 1] = f[1]
    out[#out + 1] = f[2]
    out[#out + 1] = f[3]
    out[#out + 1] = alive
    out[#out + 1] = f[4] or ''
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`);

// KEYS: the runner's lease, when a reader first found it missing. ARGV: grace (ms). 1 when the
// lease has been missing for longer than the grace: the runner is gone. The first reader to find
// it missing starts the clock (Redis's own, so replicas' clocks do not matter).
const GONE = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local since = redis.call('GET', KEYS[2])
if not since then
  redis.call('SET', KEYS[2], now, 'PX', tonumber(ARGV[1]) * 10)
  return 0
end
if now - tonumber(since) > tonumber(ARGV[1]) then return 1 end
return 0
`);

// KEYS: the runner's lease, its missing mark. ARGV: lease (ms). A renewal clears the mark.
const RENEW = new LuaScript(`
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
redis.call('DEL', KEYS[2])
return 1
`);

// KEYS: task hash. ARGV: expected version, status, sealed body. 1 when written.
const SWAP = new LuaScript(`
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 's', ARGV[2], 'b', ARGV[3], 'v', tonumber(ARGV[1]) + 1)
return 1
`);

export interface RedisTaskStoreOptions {
  /** Tasks one owner may keep at once. Default 100, as in process. */
  maxPerOwner?: number;
  /**
   * Tasks one principal may keep over all its owners (on 2025-11-25 each session owns its tasks).
   * Default 1,000, as in process.
   */
  maxPerPrincipal?: number;
  /** Tasks kept overall, by every replica. Default 10,000, as in process. */
  maxTasks?: number;
  /**
   * How long a replica's tasks outlive its last lease renewal before any replica marks them
   * failed (ms). Default 15000.
   */
  leaseMs?: number;
  now?: () => number;
}

interface Stored {
  record: TaskRecord;
  version: string;
  runnerAlive: boolean;
  /** The open questions' ids, by key. */
  questions: QuestionIds;
}

/** The unique id of each open question of a task, by the question's key. */
export type QuestionIds = Readonly<Record<string, string>>;

/** What the body field holds, sealed: the version it was written at, the record, the question ids. */
interface Body {
  v: number;
  r: TaskRecord;
  q?: QuestionIds;
}

const STATUSES: readonly string[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

const ORPHANED = 'The replica running this task stopped before it finished';

/** A task as the scripts read it: status, version, sealed body, runner alive (1/0), runner. */
type Row = [string, string, string, number, string];

export class RedisTaskStore implements TaskStore {
  /** This process's id in the leases: a restarted replica is a new one. */
  readonly replica = randomBytes(6).toString('hex');
  readonly #client: Redis;
  readonly #sealer: VaultSealer;
  readonly #tasks: string;
  readonly #owners: string;
  readonly #alive: string;
  readonly #maxPerOwner: number;
  readonly #maxPerPrincipal: number;
  readonly #principals: string;
  readonly #maxTasks: number;
  readonly #all: string;
  readonly #leaseMs: number;
  /** How often the lease is renewed, and how long it must stay missing before its tasks fail. */
  readonly #renewalMs: number;
  readonly #gone: string;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  /**
   * The ids of the questions open in tasks this replica asked them for (it runs those tasks),
   * until the task's expiry: only these may be answered by a relayed answer, whatever Redis says.
   */
  readonly #asked = new Map<string, { ids: Record<string, string>; until: number }>();
  /**
   * Told when this store marks a dead replica's task failed: nobody runs it, so no engine would
   * announce the change (`RedisSharedState.tasks` sends it through the relay to every replica).
   */
  onOrphaned: (record: TaskRecord) => void = () => {};

  constructor(client: Redis, prefix: string, sealer: VaultSealer, options: RedisTaskStoreOptions = {}) {
    this.#client = client;
    this.#sealer = sealer;
    this.#tasks = `${prefix}task:`;
    this.#owners = `${prefix}tasks:owner:`;
    this.#alive = `${prefix}tasks:alive:`;
    this.#maxPerOwner = options.maxPerOwner ?? 100;
    this.#maxPerPrincipal = options.maxPerPrincipal ?? 1_000;
    this.#principals = `${prefix}tasks:principal:`;
    this.#maxTasks = options.maxTasks ?? 10_000;
    this.#all = `${prefix}tasks:all`;
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#renewalMs = Math.max(10, Math.floor(this.#leaseMs / 3));
    this.#gone = `${prefix}tasks:gone:`;
    this.#now = options.now ?? Date.now;
  }

  async create(record: TaskRecord): Promise<void> {
    this.#renewing();
    const now = this.#now();
    const remaining = record.createdAt + record.ttlMs - now;
    const principal = this.#ownerKey(record.principal ?? record.owner);
    const created = await shared(STATE, () =>
      CREATE.run(
        this.#client,
        [
          this.#tasks + record.taskId,
          this.#owners + this.#ownerKey(record.owner),
          this.#alive + this.replica,
          this.#all,
          this.#principals + principal,
        ],
        [
          this.#tasks,
          record.taskId,
          record.status,
          this.#seal(record, '0', {}),
          this.replica,
          this.#ownerKey(record.owner),
          record.createdAt,
          Math.max(1, Math.ceil(remaining)),
          this.#maxPerOwner,
          this.#leaseMs,
          this.#maxTasks,
          now,
          this.#owners,
          this.#principals,
          principal,
          this.#maxPerPrincipal,
        ],
      ),
    );
    if (created !== 1) {
      throw new RateLimitedError('Too many tasks are running; wait for one to finish or cancel one', {
        data: { maxPerOwner: this.#maxPerOwner },
      });
    }
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return (await this.#load(taskId))?.record;
  }

  async transition(
    taskId: string,
    from: readonly TaskStatus[],
    patch: TaskPatch,
  ): Promise<TaskRecord | undefined> {
    // Another replica may write between the read and the swap: then read again. A handful of
    // writers at most race for one task (its runner and a canceller), so this ends quickly.
    for (let attempt = 0; attempt < 20; attempt++) {
      const stored = await this.#load(taskId);
      if (!stored || !from.includes(stored.record.status)) return undefined;
      const next = applyPatch(stored.record, patch);
      // A patch that sets the questions is the running replica's (or one ending the task, which
      // clears them): ids are kept for questions still open and drawn for new ones.
      const asking = 'inputRequests' in patch;
      const questions = asking ? this.#questionIds(taskId, next) : stored.questions;
      if (await this.#swap(next, stored.version, questions)) {
        if (asking) this.#remember(next, questions);
        return next;
      }
    }
    throw new SharedStateUnavailableError(STATE, new Error('the task kept changing under this write'));
  }

  async list(owner: string): Promise<TaskRecord[]> {
    const flat = (await shared(STATE, () =>
      LIST.run(this.#client, [this.#owners + this.#ownerKey(owner)], [this.#tasks, this.#alive]),
    )) as string[];
    const out: TaskRecord[] = [];
    for (let i = 0; i + 5 < flat.length; i += 6) {
      const stored = await this.#settle(flat[i] as string, [
        flat[i + 1] as string,
        flat[i + 2] as string,
        flat[i + 3] as string,
        Number(flat[i + 4]),
        flat[i + 5] as string,
      ]);
      if (stored && stored.record.owner === owner) out.push(stored.record);
    }
    return out;
  }

  /**
   * The ids of the task's open questions as Redis holds them (what the client answering was
   * shown); undefined for a task unknown or not readable. Rejects with shared_state_unavailable.
   */
  async questionIds(taskId: string): Promise<QuestionIds | undefined> {
    return (await this.#load(taskId))?.questions;
  }

  /**
   * Of the answers bound to question ids (`bound`, by key), the keys of the questions this
   * replica asked with exactly those ids and still waits on; each is taken once, so another
   * answer bound to the same id (a copy) finds nothing. For the relay of the same pair.
   */
  takeAnswered(taskId: string, bound: Readonly<Record<string, unknown>>): string[] {
    const asked = this.#asked.get(taskId);
    if (!asked) return [];
    if (asked.until < this.#now()) {
      this.#asked.delete(taskId);
      return [];
    }
    const taken: string[] = [];
    for (const [key, id] of Object.entries(bound)) {
      if (typeof id !== 'string' || asked.ids[key] !== id) continue;
      delete asked.ids[key];
      taken.push(key);
    }
    return taken;
  }

  /** Stop renewing the lease and drop it: tasks still running here are failed by the next reader. */
  async close(): Promise<void> {
    if (!this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#client.off('ready', this.#renew);
    await this.#client.del(this.#alive + this.replica).catch(() => {});
  }

  async #load(taskId: string): Promise<Stored | undefined> {
    const row = (await shared(STATE, () =>
      READ.run(this.#client, [this.#tasks + taskId], [this.#alive]),
    )) as Row | null;
    return row ? this.#settle(taskId, row) : undefined;
  }

  /** The stored row as a record; an active task whose replica is gone is failed first. */
  async #settle(taskId: string, row: Row): Promise<Stored | undefined> {
    const [, version, body, alive, runner] = row;
    const opened = this.#open(taskId, version, body);
    if (!opened) return undefined;
    const { record, questions } = opened;
    // Redis expires the hash by its own clock; this keeps the port's rule by the replicas' one.
    if (this.#now() > record.createdAt + record.ttlMs) return undefined;
    const stored: Stored = { record, version, runnerAlive: alive === 1, questions };
    if (stored.runnerAlive || isTerminalStatus(record.status)) return stored;
    // A missing lease may be one that lapsed while Redis was away, its replica about to renew it:
    // the task is failed only once the lease stays missing past a renewal period.
    if (!(await this.#runnerGone(runner))) return { ...stored, runnerAlive: true };
    const failed = applyPatch(record, {
      status: 'failed',
      statusMessage: ORPHANED,
      error: { code: ErrorCode.InternalError, message: ORPHANED },
      inputRequests: undefined,
      lastUpdatedAt: this.#now(),
    });
    if (await this.#swap(failed, version, {})) {
      this.onOrphaned(failed);
      return { record: failed, version: String(Number(version) + 1), runnerAlive: false, questions: {} };
    }
    // Someone else wrote first (the orphan marked by another reader): read what they wrote.
    return this.#load(taskId);
  }

  async #runnerGone(runner: string): Promise<boolean> {
    const gone = await shared(STATE, () =>
      GONE.run(this.#client, [this.#alive + runner, this.#gone + runner], [this.#renewalMs]),
    );
    return gone === 1;
  }

  #swap(record: TaskRecord, version: string, questions: QuestionIds): Promise<boolean> {
    return shared(STATE, async () => {
      const done = await SWAP.run(
        this.#client,
        [this.#tasks + record.taskId],
        [version, record.status, this.#seal(record, version, questions)],
      );
      return done === 1;
    });
  }

  /** The body written over `version`, so sealed for the one after it (CREATE writes 1 over '0'). */
  #seal(record: TaskRecord, version: string, questions: QuestionIds): string {
    const body: Body = { v: Number(version) + 1, r: record };
    if (Object.keys(questions).length > 0) body.q = questions;
    return this.#sealer.seal(JSON.stringify(body), LABEL);
  }

  #open(
    taskId: string,
    version: string,
    sealed: string,
  ): { record: TaskRecord; questions: QuestionIds } | undefined {
    try {
      const body = JSON.parse(this.#sealer.open(sealed, LABEL)) as Partial<Body>;
      const record = body.r;
      // A body copied under another task's key, or back under a later version of its own, is
      // not what the task holds now; a body of an earlier release (no version) is not read.
      if (!record || typeof record !== 'object' || record.taskId !== taskId) return undefined;
      if (body.v !== Number(version) || !STATUSES.includes(record.status)) return undefined;
      const questions = body.q && typeof body.q === 'object' ? body.q : {};
      return { record, questions };
    } catch {
      // Sealed under another vault key: not a task this replica can know.
      return undefined;
    }
  }

  /** Ids for `record`'s open questions: those this replica drew before for the same keys, else new. */
  #questionIds(taskId: string, record: TaskRecord): QuestionIds {
    const before = this.#asked.get(taskId)?.ids ?? {};
    const ids: Record<string, string> = {};
    for (const key of Object.keys(record.inputRequests ?? {})) {
      ids[key] = before[key] ?? randomBytes(12).toString('base64url');
    }
    return ids;
  }

  /** Keep the ids of questions this replica just wrote as open; forget the task's once none are. */
  #remember(record: TaskRecord, questions: QuestionIds): void {
    const now = this.#now();
    for (const [taskId, asked] of this.#asked) if (asked.until < now) this.#asked.delete(taskId);
    if (Object.keys(questions).length === 0 || isTerminalStatus(record.status)) {
      this.#asked.delete(record.taskId);
      return;
    }
    this.#asked.set(record.taskId, { ids: { ...questions }, until: record.createdAt + record.ttlMs });
  }

  #ownerKey(owner: string): string {
    return this.#sealer.lookup(`task-owner\u0000${owner}`);
  }

  /**
   * Renew this replica's lease from its first task on (each task's creation takes it too), and at
   * once whenever the connection is ready again: the lease may have lapsed while Redis was away.
   */
  #renewing(): void {
    if (this.#timer) return;
    this.#timer = setInterval(this.#renew, this.#renewalMs);
    this.#timer.unref();
    this.#client.on('ready', this.#renew);
  }

  readonly #renew = (): void => {
    void RENEW.run(
      this.#client,
      [this.#alive + this.replica, this.#gone + this.replica],
      [this.#leaseMs],
    ).catch(() => {
      // Redis away: the next renewal, reconnection or task creation takes the lease again.
    });
  };
}

/** `record` with `patch` applied; a field set to undefined is removed, so it stays plain JSON. */
function applyPatch(record: TaskRecord, patch: TaskPatch): TaskRecord {
  const next: TaskRecord = { ...record, ...patch };
  for (const key of Object.keys(next) as (keyof TaskRecord)[]) if (next[key] === undefined) delete next[key];
  return next;
}
