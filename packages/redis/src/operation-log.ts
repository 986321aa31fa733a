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
 */
import { randomBytes } from 'node:crypto';
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { SharedStateUnavailableError, shared } from './errors.js';
import { LuaScript } from './script.js';

// KEYS: lease, log, channel, epoch. ARGV: token, a new epoch, then the sealed operations.
// {-1} when the lease is not ours, else {new length, epoch}; the first append of a log (a new one,
// or one Redis lost) names its epoch.
const APPEND = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1, ''} end
local epoch = redis.call('GET', KEYS[4])
if not epoch then
  epoch = ARGV[2]
  redis.call('SET', KEYS[4], epoch)
end
local n = 0
for i = 3, #ARGV do n = redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('PUBLISH', KEYS[3], n)
return {n, epoch}
`);
// KEYS: log, epoch. {length, epoch or ''}.
const HEAD = new LuaScript(`
return {redis.call('LLEN', KEYS[1]), redis.call('GET', KEYS[2]) or ''}
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
}

export interface OperationLease<T> {
  /** Append after everything the log holds; the head after them. Refused when the lease expired. */
  append(operations: readonly T[]): Promise<OperationLogHead>;
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
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#retryMs = options.retryMs ?? 25;
  }

  async head(): Promise<OperationLogHead> {
    const [seq, epoch] = (await shared(this.#state, () =>
      HEAD.run(this.#client, [this.#log, this.#epoch], []),
    )) as [number, string];
    return { seq, epoch };
  }

  async read(after: number): Promise<LoggedEntry<T>[]> {
    const sealed = await shared(this.#state, () => this.#client.lrange(this.#log, after, -1));
    return sealed.map((entry, i) => ({
      seq: after + i + 1,
      operation: JSON.parse(this.#sealer.open(entry, this.#label)) as T,
    }));
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
        const [seq, epoch] = (await shared(this.#state, () =>
          APPEND.run(
            client,
            [this.#lease, this.#log, this.#channel, this.#epoch],
            [token, randomBytes(8).toString('hex'), ...sealed],
          ),
        )) as [number, string];
        if (seq < 0)
          throw new SharedStateUnavailableError(
            this.#state,
            new Error('the lease expired before the change was shared'),
          );
        return { seq, epoch };
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
    await shared(this.#state, () => this.#client.del(this.#log, this.#lease, this.#epoch));
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
