/**
 * The task relay of @cloudg/core over Redis pub/sub: one channel, `<prefix>tasks:signals`, that
 * every replica hears. A cancellation or answers reach the replica running the task (the others
 * ignore them, since only it holds the running work), and each change a replica makes reaches
 * the `notifications/tasks` listeners of all. Messages are sealed with the vault key, as the
 * stored records are: answers and results carry the caller's values.
 *
 * It subscribes on a connection of its own (Redis needs one for pub/sub), apart from the
 * sessions' bus, whose channels carry the sessions' own signals. Pub/sub keeps nothing: a signal
 * published while a replica is reconnecting is lost to it; the store stays the truth, so a lost
 * change shows on the next poll and a lost cancellation can be sent again with `tasks/cancel`.
 */
import { randomBytes } from 'node:crypto';
import type { TaskRelay, TaskSignal } from '@cloudg/core';
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';

const LABEL = 'task-signal';

export class RedisTaskRelay implements TaskRelay {
  readonly #origin = randomBytes(6).toString('hex');
  readonly #client: Redis;
  readonly #sealer: VaultSealer;
  readonly #channel: string;
  readonly #subscriber: Redis;
  readonly #handlers = new Set<(signal: TaskSignal) => void>();
  #subscribed: Promise<void> | undefined;

  constructor(client: Redis, prefix: string, sealer: VaultSealer) {
    this.#client = client;
    this.#sealer = sealer;
    this.#channel = `${prefix}tasks:signals`;
    this.#subscriber = client.duplicate({ lazyConnect: true });
    this.#subscriber.on('error', () => {});
    this.#subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.#channel) this.#hear(text);
    });
    // A failed start is reported by the first send, which tries again.
    this.ready().catch(() => {});
  }

  /**
   * Settles once the channel is subscribed; after a failed attempt (Redis away at start) the next
   * call tries again. Once subscribed, ioredis subscribes again by itself after a reconnect.
   */
  ready(): Promise<void> {
    this.#subscribed ??= this.#subscribe().catch((error: unknown) => {
      this.#subscribed = undefined;
      throw error;
    });
    return this.#subscribed;
  }

  async #subscribe(): Promise<void> {
    if (this.#subscriber.status === 'wait') await this.#subscriber.connect();
    await this.#subscriber.subscribe(this.#channel);
  }

  async send(signal: TaskSignal): Promise<void> {
    const message = JSON.stringify({ o: this.#origin, m: this.#sealer.seal(JSON.stringify(signal), LABEL) });
    await shared('tasks', async () => {
      await this.ready();
      await this.#client.publish(this.#channel, message);
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
    this.#subscriber.disconnect();
  }

  #hear(text: string): void {
    let signal: TaskSignal;
    try {
      const envelope = JSON.parse(text) as { o?: string; m?: string };
      if (envelope.o === this.#origin || typeof envelope.m !== 'string') return;
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
