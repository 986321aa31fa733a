/**
 * An ordered log of operations in Redis, with a lease naming its one writer: the catalog's
 * `WorkspaceLog` port (this package does not import the catalog, so the types are its own and
 * match the port's shape). A list of sealed operations, a lease key and a channel announcing
 * appends, under `<prefix><name>:`:
 *
 * - `log`: one entry per operation, AES-256-GCM under the vault key (paths,
 *   dataset names and triage reasons are the operator's data), in the order every replica
 *   applies them. Its length is the head's seq.
 * - `lease`: a random token with an expiry (`SET NX PX`). The holder renews it
 *   a third of the way through; a replica that dies stops renewing, and the lease frees itself
 *   after at most `leaseMs`. An append checks the token in the same script, so a writer whose
 *   lease expired (a long pause) cannot interleave with the next one.
 * - `changes`: PUBLISH of the new head after each append.
 * - `epoch`: a random id set by the first append of a log; a Redis restarted without its data
 *   has none, so the next append names a new one and the replicas know their seqs are void.
 * - `base` and `snapshot`: after a compaction, the seq the snapshot covers and the operations
 *   still in effect up to it, sealed as one record; `log` then holds only what came after, and
 *   seq n is the list's element n - base. Compaction runs under the lease (checked in the same
 *   script as the trim), so it never races an append.
 */
import { randomBytes } from 'node:crypto';
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { SharedStateUnavailableError, shared } from './errors.js';
import { LuaScript } from './script.js';

// KEYS: lease, log, channel, epoch, base. ARGV: token, a new epoch, then the sealed operations.
// {-1} when the lease is not ours, else {new head seq, epoch, base}; the first append of a log (a new
// one, or one Redis lost) names its epoch.
const APPEND = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1, ''} end
local epoch = redis.call('GET', KEYS[4])
if not epoch then
  epoch = ARGV[2]
  redis.call('SET', KEYS[4], epoch)
end
local n = 0
for i = 3, #ARGV do n = redis.call('RPUSH', KEYS[2], ARGV[i]) end
local base = tonumber(redis.call('GET', KEYS[5]) or '0')
n = n + base
redis.call('PUBLISH', KEYS[3], n)
return {n, epoch, base}
`);
// KEYS: log, epoch, base. {seq, epoch or '', base}.
const HEAD = new LuaScript(`
local base = tonumber(redis.call('GET', KEYS[3]) or '0')
return {base + redis.call('LLEN', KEYS[1]), redis.call('GET', KEYS[2]) or '', base}
`);
// KEYS: log, base. ARGV: after. {base, entries after max(after, base)}: one step, so a compaction
// between the two reads cannot shift the seqs.
const READ = new LuaScript(`
local base = tonumber(redis.call('GET', KEYS[2]) or '0')
local from = math.max(tonumber(ARGV[1]), base)
return {base, redis.call('LRANGE', KEYS[1], from - base, -1)}
`);
// KEYS: lease, log, base, snapshot. ARGV: token, seq, sealed snapshot. 1 when compacted; -1 when
// the lease is not ours; 0 when seq is not within the log.
const COMPACT = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local base = tonumber(redis.call('GET', KEYS[3]) or '0')
local seq = tonumber(ARGV[2])
if seq < base or seq > base + redis.call('LLEN', KEYS[2]) then return 0 end
redis.call('LTRIM', KEYS[2], seq - base, -1)
redis.call('SET', KEYS[3], seq)
redis.call('SET', KEYS[4], ARGV[3])
return 1
`);
// KEYS: lease. ARGV: token, milliseconds. 1 when renewed.
const RENEW = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`);
const RELEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

export interface LoggedEntry<T> {
  /** Position in the log, from 1. */
  seq: number;
  operation: T;
}

/** The catalog's LogHead: the last seq and the log's epoch (new when Redis lost the log). */
export interface OperationLogHead {
  seq: number;
  epoch: string;
  /** The seq the snapshot covers (0: never compacted). */
  base: number;
}

/** The catalog's LogSnapshot: the operations still in effect up to `seq`. */
export interface OperationLogSnapshot<T> {
  seq: number;
  operations: T[];
}

export interface OperationLease<T> {
  /** Append after everything the log holds; the head after them. Refused when the lease expired. */
  append(operations: readonly T[]): Promise<OperationLogHead>;
  /** Replace the log up to `seq` by `operations`; refused when the lease expired. */
  compact(seq: number, operations: readonly T[]): Promise<void>;
  release(): Promise<void>;
}

export interface RedisOperationLogOptions {
  /** How long a lease outlives its holder's last renewal (ms). Default 15000. */
  leaseMs?: number;
  /** How often a waiting writer tries the lease again (ms). Default 25. */
  retryMs?: number;
}

export class RedisOperationLog<T> {
  readonly #client: Redis;
  /** What a failure names (`workspace`): see SharedStateUnavailableError. */
  readonly #state: string;
  /** Authenticated with each entry, so one log's entries never open as another's. */
  readonly #label: string;
  readonly #sealer: VaultSealer;
  readonly #log: string;
  readonly #lease: string;
  readonly #channel: string;
  readonly #epoch: string;
  readonly #base: string;
  readonly #snapshot: string;
  readonly #leaseMs: number;
  readonly #retryMs: number;

  /** `name` (`workspace`) is the keys' part after the prefix and what failures name. */
  constructor(
    client: Redis,
    prefix: string,
    name: string,
    sealer: VaultSealer,
    options: RedisOperationLogOptions = {},
  ) {
    this.#client = client;
    this.#sealer = sealer;
    this.#state = name;
    this.#label = `${name}-log`;
    this.#log = `${prefix}${name}:log`;
    this.#lease = `${prefix}${name}:lease`;
    this.#channel = `${prefix}${name}:changes`;
    this.#epoch = `${prefix}${name}:epoch`;
    this.#base = `${prefix}${name}:base`;
    this.#snapshot = `${prefix}${name}:snapshot`;
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#retryMs = options.retryMs ?? 25;
  }

  async head(): Promise<OperationLogHead> {
    const [seq, epoch, base] = (await shared(this.#state, () =>
      HEAD.run(this.#client, [this.#log, this.#epoch, this.#base], []),
    )) as [number, string, number];
    return { seq, epoch, base };
  }

  async read(after: number): Promise<LoggedEntry<T>[]> {
    const [base, sealed] = (await shared(this.#state, () =>
      READ.run(this.#client, [this.#log, this.#base], [after]),
    )) as [number, string[]];
    const from = Math.max(after, base);
    return sealed.map((entry, i) => ({
      seq: from + i + 1,
      operation: JSON.parse(this.#sealer.open(entry, this.#label)) as T,
    }));
  }

  async snapshot(): Promise<OperationLogSnapshot<T>> {
    const sealed = await shared(this.#state, () => this.#client.get(this.#snapshot));
    if (sealed === null) return { seq: 0, operations: [] };
    return JSON.parse(this.#sealer.open(sealed, `${this.#label}-snapshot`)) as OperationLogSnapshot<T>;
  }

  async lease(signal: AbortSignal): Promise<OperationLease<T>> {
    const token = randomBytes(16).toString('hex');
    for (;;) {
      signal.throwIfAborted();
      const taken = await shared(this.#state, () =>
        this.#client.set(this.#lease, token, 'PX', this.#leaseMs, 'NX'),
      );
      if (taken === 'OK') break;
      await pause(this.#retryMs, signal);
    }
    return this.#held(token);
  }

  #held(token: string): OperationLease<T> {
    const client = this.#client;
    const renew = setInterval(
      () => void RENEW.run(client, [this.#lease], [token, this.#leaseMs]).catch(() => {}),
      Math.max(10, Math.floor(this.#leaseMs / 3)),
    );
    renew.unref?.();
    return {
      append: async (operations: readonly T[]) => {
        const sealed = operations.map((op) => this.#sealer.seal(JSON.stringify(op), this.#label));
        const [seq, epoch, base] = (await shared(this.#state, () =>
          APPEND.run(
            client,
            [this.#lease, this.#log, this.#channel, this.#epoch, this.#base],
            [token, randomBytes(8).toString('hex'), ...sealed],
          ),
        )) as [number, string, number?];
        if (seq < 0)
          throw new SharedStateUnavailableError(
            this.#state,
            new Error('the lease expired before the change was shared'),
          );
        return { seq, epoch, base: base ?? 0 };
      },
      compact: async (seq: number, operations: readonly T[]) => {
        // The snapshot names its seq inside the seal: a record moved to another log or seq
        // would not open (the label) or would say so.
        const sealed = this.#sealer.seal(JSON.stringify({ seq, operations }), `${this.#label}-snapshot`);
        const done = await shared(this.#state, () =>
          COMPACT.run(client, [this.#lease, this.#log, this.#base, this.#snapshot], [token, seq, sealed]),
        );
        if (done === -1)
          throw new SharedStateUnavailableError(
            this.#state,
            new Error('the lease expired before the log was compacted'),
          );
        // 0: the seq is not in the log (before its base, past its head): nothing was replaced, so
        // the caller must not go on as if it had (it would delete files the log still names).
        if (done !== 1) throw new Error(`the log was not compacted: it holds no seq ${seq} to compact up to`);
      },
      release: async () => {
        clearInterval(renew);
        await RELEASE.run(client, [this.#lease], [token]).catch(() => {});
      },
    };
  }

  watch(listener: (seq: number) => void): () => void {
    // Subscribing takes a connection of its own; the shared workspace polls as well, so a
    // subscription that fails (Redis away) only delays notifications by one poll.
    const subscriber = this.#client.duplicate({ lazyConnect: true });
    subscriber.on('error', () => {});
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.#channel) listener(Number(message));
    });
    void subscriber
      .connect()
      .then(() => subscriber.subscribe(this.#channel))
      .catch(() => {});
    return () => subscriber.disconnect();
  }

  /** Forget the log (tests; an operator starting the shared workspace afresh). */
  async clear(): Promise<void> {
    await shared(this.#state, () =>
      this.#client.del(this.#log, this.#lease, this.#epoch, this.#base, this.#snapshot),
    );
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      ms * (0.5 + Math.random()),
    );
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
