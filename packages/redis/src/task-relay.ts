/**
 * The task relay of @cloudg/core over Redis pub/sub: one channel, `<prefix>tasks:signals`, that
 * every replica hears. A cancellation or answers reach the replica running the task (the others
 * ignore them, since only it holds the running work), and each change a replica makes reaches
 * the `notifications/tasks` listeners of all. Messages are sealed with the vault key, as the
 * stored records are: answers and results carry the caller's values.
 *
 * It listens on the replica's bus (the subscriber connection the sessions and changes use), on a
 * channel of its own. Pub/sub keeps nothing: a signal published while a replica is reconnecting
 * is lost to it; the store stays the truth, so a lost change shows on the next poll, and a
 * running task whose cancellation was lost stops at its next refused write.
 *
 * It also keeps the handshake era's one `tasks/result` waiter per task across replicas
 * (`claimWait`, task-waits.ts): a later wait on any replica supersedes the earlier one, which is
 * told on this channel.
 */
import type { TaskRelay, TaskSignal } from '@cloudg/core';
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import type { ReplicaBus } from './replica-bus.js';
import { TaskWaits } from './task-waits.js';

const LABEL = 'task-signal';
const WAIT_LABEL = 'task-wait';

export interface RedisTaskRelayOptions {
  /** Key prefix of the wait claims (`cloudg:`, the shared state's). */
  prefix?: string;
  /** How long a wait claim outlives its replica's last renewal (ms). Default 15000. */
  leaseMs?: number;
}

export class RedisTaskRelay implements TaskRelay {
  readonly #client: Redis;
  readonly #bus: ReplicaBus;
  readonly #sealer: VaultSealer;
  readonly #handlers = new Set<(signal: TaskSignal) => void>();
  readonly #stop: () => void;
  readonly #waits: TaskWaits;

  /** @internal Built by `RedisSharedState.tasks`, on that state's bus. */
  constructor(client: Redis, bus: ReplicaBus, sealer: VaultSealer, options: RedisTaskRelayOptions = {}) {
    this.#client = client;
    this.#bus = bus;
    this.#sealer = sealer;
    this.#waits = new TaskWaits(client, {
      prefix: options.prefix ?? 'cloudg:',
      replica: bus.replica,
      leaseMs: options.leaseMs ?? 15_000,
      tell: (token) => this.#publish({ w: this.#sealer.seal(token, WAIT_LABEL) }),
    });
    this.#stop = bus.on(bus.tasks, (text) => this.#hear(text));
  }

  /** Settles once this replica hears the channel (createRedisSharedState waits for it). */
  ready(): Promise<void> {
    return this.#bus.ready;
  }

  async send(signal: TaskSignal): Promise<void> {
    await this.#publish({ m: this.#sealer.seal(JSON.stringify(signal), LABEL) });
  }

  /**
   * Become the one waiter for the task's result on every replica; an earlier waiter anywhere is
   * superseded. Rejects with shared_state_unavailable when Redis cannot record the claim.
   */
  claimWait(taskId: string, superseded: () => void): Promise<() => void> {
    return this.#waits.claim(taskId, superseded);
  }

  /** Told each time this replica hears the task channel again after a lost connection. */
  onResumed(handler: () => void): () => void {
    return this.#bus.onResubscribed(handler);
  }

  async #publish(body: { m: string } | { w: string }): Promise<void> {
    const message = JSON.stringify({ o: this.#bus.replica, ...body });
    await shared('tasks', async () => {
      await this.#bus.ready;
      await this.#client.publish(this.#bus.tasks, message);
    });
  }

  /**
   * Tell this replica's listeners as well as the others: for a change no engine made (a task
   * whose replica died, failed by the store that noticed).
   */
  announce(signal: TaskSignal): void {
    this.#dispatch(signal);
    this.send(signal).catch(() => {
      // The record holds the change; the other replicas see it on their next read.
    });
  }

  listen(handler: (signal: TaskSignal) => void): () => void {
    this.#handlers.add(handler);
    return () => this.#handlers.delete(handler);
  }

  close(): void {
    this.#handlers.clear();
    this.#waits.close();
    this.#stop();
  }

  #hear(text: string): void {
    let signal: TaskSignal;
    try {
      const envelope = JSON.parse(text) as { o?: string; m?: string; w?: string };
      if (envelope.o === this.#bus.replica) return;
      if (typeof envelope.w === 'string') {
        this.#waits.heard(this.#sealer.open(envelope.w, WAIT_LABEL));
        return;
      }
      if (typeof envelope.m !== 'string') return;
      signal = JSON.parse(this.#sealer.open(envelope.m, LABEL)) as TaskSignal;
    } catch {
      // Another vault key, or not a signal of ours: nothing this replica can act on.
      return;
    }
    this.#dispatch(signal);
  }

  #dispatch(signal: TaskSignal): void {
    for (const handler of [...this.#handlers]) {
      try {
        handler(signal);
      } catch {
        // One failing listener does not keep the others from hearing.
      }
    }
  }
}
