/**
 * The one waiter per task of the handshake era's `tasks/result`, across replicas. In one process
 * a later `tasks/result` of a session for a task supersedes the session's earlier one (answered
 * -32600); with replicas, the two may sit on different ones, so the waiter is recorded in Redis,
 * per task: a task with a session id is owned by that session, so per task is per session. A
 * request without a session id (stateless HTTP, stdio) claims nothing here (result-waiters.ts in
 * @cloudg/transports): it is a session of its own, which no other request shares, as in one
 * process.
 *
 * - `<prefix>tasks:waiter:<task id>`: the current waiter's token (`<replica>:<random>`), with a
 *   lease (`leaseMs`) its replica renews a third of the way through while it waits and deletes
 *   when the wait ends. A replica that dies stops renewing, and the claim lapses with the lease.
 * - `<prefix>tasks:waiter:superseded:<token>`: set when a later claim replaced that token, so
 *   the earlier waiter learns it at its next renewal even if the signal below was lost.
 *
 * A claim replaces whatever token was there and, when it replaced another replica's, that
 * replica is told at once through the task channel (sealed: the token is all it carries, but an
 * unsealed message must not end someone's wait). Pub/sub loses messages while a replica
 * reconnects; the renewal then catches it within a third of the lease.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import { LuaScript } from './script.js';

const STATE = 'tasks';

// KEYS: the task's waiter key. ARGV: token, lease (ms), superseded-mark prefix. The token it
// replaced, or nil.
const CLAIM = new LuaScript(`
local old = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if old and old ~= ARGV[1] then
  redis.call('SET', ARGV[3] .. old, '1', 'PX', tonumber(ARGV[2]) * 2)
  return old
end
return false
`);

// KEYS: the task's waiter key. ARGV: token, lease (ms), superseded-mark prefix. 1 while the token
// is the waiter (a claim that lapsed during a Redis outage is taken again, unless a later claim
// superseded it meanwhile); 0 once superseded.
const RENEW = new LuaScript(`
if redis.call('EXISTS', ARGV[3] .. ARGV[1]) == 1 then return 0 end
local now = redis.call('GET', KEYS[1])
if now == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not now then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`);

// KEYS: the task's waiter key. ARGV: token. Deleted only while it is still this token's.
const RELEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

export interface TaskWaitsOptions {
  /** Key prefix (`cloudg:`). */
  prefix: string;
  /** This replica's id: the first part of its tokens. */
  replica: string;
  /** How long a claim outlives its last renewal (ms). */
  leaseMs: number;
  /** Tell the replica that holds `token` that it was superseded. */
  tell: (token: string) => Promise<void>;
}

export class TaskWaits {
  readonly #client: Redis;
  readonly #options: TaskWaitsOptions;
  readonly #superseded: string;
  /** This replica's waits, by token: what to call when superseded, and how to stop renewing. */
  readonly #local = new Map<string, { supersede: () => void; end: () => void }>();

  constructor(client: Redis, options: TaskWaitsOptions) {
    this.#client = client;
    this.#options = options;
    this.#superseded = `${options.prefix}tasks:waiter:superseded:`;
  }

  /** Become the waiter for `taskId`; resolves with the release. Rejects (shared_state_unavailable) when Redis cannot record it. */
  async claim(taskId: string, superseded: () => void): Promise<() => void> {
    const { prefix, replica, leaseMs } = this.#options;
    const key = `${prefix}tasks:waiter:${taskId}`;
    const token = `${replica}:${randomBytes(9).toString('base64url')}`;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      this.#local.delete(token);
    };
    const supersede = () => {
      if (ended) return;
      end();
      superseded();
    };
    this.#local.set(token, { supersede, end });
    const renew = async () => {
      try {
        const still = await RENEW.run(this.#client, [key], [token, leaseMs, this.#superseded]);
        if (still === 0) supersede();
      } catch {
        // Redis away: the wait's own reads of the task fail it; the next renewal takes the claim back.
      }
    };
    const timer = setInterval(() => void renew(), Math.max(10, Math.floor(leaseMs / 3)));
    timer.unref();
    let replaced: unknown;
    try {
      replaced = await shared(STATE, () =>
        CLAIM.run(this.#client, [key], [token, leaseMs, this.#superseded]),
      );
    } catch (error) {
      end();
      throw error;
    }
    if (typeof replaced === 'string') await this.#supersede(replaced);
    return () => {
      if (ended) return;
      end();
      RELEASE.run(this.#client, [key], [token]).catch(() => {
        // Left to lapse with its lease: a later claim replaces it anyway.
      });
    };
  }

  /** A token another claim replaced: ended here at once, or told to its replica. */
  async #supersede(token: string): Promise<void> {
    const local = this.#local.get(token);
    if (local) {
      local.supersede();
      return;
    }
    if (!token.startsWith(`${this.#options.replica}:`)) {
      // Lost, it is caught by that replica's next renewal (the superseded mark).
      await this.#options.tell(token).catch(() => {});
    }
  }

  /** A replica told this one that `token` was superseded. */
  heard(token: string): void {
    this.#local.get(token)?.supersede();
  }

  /**
   * Stop renewing every wait (the shared state closes; the server ends their requests itself):
   * their claims lapse with the lease. Nobody superseded them, so they are not told so.
   */
  close(): void {
    for (const { end } of [...this.#local.values()]) end();
    this.#local.clear();
  }
}
