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
 *
 * The seal proves a replica sent a message, not when: someone who can write to Redis could
 * publish a copy again (an old status told to listeners as news, an answer reaching a later
 * question with the same key, a cancellation or supersede notice once more). So each message
 * carries, inside the seal, its sender, its send time and a nonce, and a replica takes it once and
 * only within SIGNAL_MAX_AGE_MS (session-freshness.ts), and not at all when it was sent more than
 * a second before this replica began to listen (a replica started since has not seen the earlier
 * nonces, and could not have heard the original). An answer also names the unique id of each
 * question it answers (task-store.ts), and only the replica that asked that question under that
 * id takes it, once.
 */
import { randomBytes } from 'node:crypto';
import type { JsonValue, TaskRelay, TaskSignal } from '@cloudg/core';
import type { VaultSealer } from '@cloudg/privacy';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import type { ReplicaBus } from './replica-bus.js';
import { SignalFreshness } from './session-freshness.js';
import type { QuestionIds } from './task-store.js';
import { TaskWaits } from './task-waits.js';

const LABEL = 'task-signal';
const WAIT_LABEL = 'task-wait';
/** How far a sender's clock may be behind this replica's when it began to listen (ms). */
const START_SKEW_MS = 1_000;

/** The question ids of the task store (RedisTaskStore): what binds an answer to its question. */
export interface TaskQuestions {
  /** The ids of the task's open questions as the store holds them. */
  questionIds(taskId: string): Promise<QuestionIds | undefined>;
  /** The keys among `bound` this replica asked under those ids, each taken once. */
  takeAnswered(taskId: string, bound: Readonly<Record<string, unknown>>): string[];
}

export interface RedisTaskRelayOptions {
  /** Key prefix of the wait claims (`cloudg:`, the shared state's). */
  prefix?: string;
  /** How long a wait claim outlives its replica's last renewal (ms). Default 15000. */
  leaseMs?: number;
  /** How old a message may be when heard (ms). Default SIGNAL_MAX_AGE_MS (30000). */
  signalMaxAgeMs?: number;
}

/** What the seal of a message holds besides its content: sender, send time, nonce. */
interface Stamp {
  o: string;
  t: number;
  n: string;
}

export class RedisTaskRelay implements TaskRelay {
  readonly #client: Redis;
  readonly #bus: ReplicaBus;
  readonly #sealer: VaultSealer;
  readonly #handlers = new Set<(signal: TaskSignal) => void>();
  readonly #stop: () => void;
  readonly #waits: TaskWaits;
  readonly #questions: TaskQuestions;
  readonly #freshness: SignalFreshness;
  /** When this replica began to listen: nothing sent well before it can be news to it. */
  readonly #since = Date.now();

  /** @internal Built by `RedisSharedState.tasks`, on that state's bus, with that pair's store. */
  constructor(
    client: Redis,
    bus: ReplicaBus,
    sealer: VaultSealer,
    questions: TaskQuestions,
    options: RedisTaskRelayOptions = {},
  ) {
    this.#client = client;
    this.#bus = bus;
    this.#sealer = sealer;
    this.#questions = questions;
    this.#freshness = new SignalFreshness(options.signalMaxAgeMs);
    this.#waits = new TaskWaits(client, {
      prefix: options.prefix ?? 'cloudg:',
      replica: bus.replica,
      leaseMs: options.leaseMs ?? 15_000,
      tell: (token) => this.#publish('w', WAIT_LABEL, { w: token }),
    });
    this.#stop = bus.on(bus.tasks, (text) => this.#hear(text));
  }

  /** Settles once this replica hears the channel (createRedisSharedState waits for it). */
  ready(): Promise<void> {
    return this.#bus.ready;
  }

  async send(signal: TaskSignal): Promise<void> {
    if (signal.kind !== 'answer') {
      await this.#publish('m', LABEL, { g: signal });
      return;
    }
    // Each answer names the id of the question it answers, as the store shows it to the client;
    // answers to no open question would be ignored by the running replica anyway.
    const ids = (await shared('tasks', () => this.#questions.questionIds(signal.taskId))) ?? {};
    const q: Record<string, string> = {};
    for (const key of Object.keys(signal.responses)) if (ids[key] !== undefined) q[key] = ids[key];
    if (Object.keys(q).length === 0) return;
    await this.#publish('m', LABEL, { g: signal, q });
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

  /** Publish `content` sealed under `label` with this replica's stamp, as field `field`. */
  async #publish(field: 'm' | 'w', label: string, content: Record<string, unknown>): Promise<void> {
    const stamp: Stamp = { o: this.#bus.replica, t: Date.now(), n: randomBytes(12).toString('base64url') };
    const sealed = this.#sealer.seal(JSON.stringify({ ...stamp, ...content }), label);
    // The sender in clear too, so a replica skips its own messages without opening them.
    const message = JSON.stringify({ o: this.#bus.replica, [field]: sealed });
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
    let body: Partial<Stamp> & { w?: unknown; g?: unknown; q?: unknown };
    let wait: boolean;
    try {
      const envelope = JSON.parse(text) as { o?: string; m?: string; w?: string };
      if (envelope.o === this.#bus.replica) return;
      wait = typeof envelope.w === 'string';
      const sealed = wait ? envelope.w : envelope.m;
      if (typeof sealed !== 'string') return;
      body = JSON.parse(this.#sealer.open(sealed, wait ? WAIT_LABEL : LABEL)) as typeof body;
    } catch {
      // Another vault key, or not a signal of ours: nothing this replica can act on.
      return;
    }
    if (!this.#fresh(body)) return;
    if (wait) {
      if (typeof body.w === 'string') this.#waits.heard(body.w);
      return;
    }
    const signal = body.g as TaskSignal | undefined;
    if (!signal || typeof signal !== 'object') return;
    if (signal.kind !== 'answer') {
      this.#dispatch(signal);
      return;
    }
    // Only the replica that asked these questions under these ids takes the answers, once.
    const bound = body.q && typeof body.q === 'object' ? (body.q as Record<string, unknown>) : {};
    const taken = this.#questions.takeAnswered(signal.taskId, bound);
    if (taken.length === 0) return;
    const responses: Record<string, JsonValue> = {};
    for (const key of taken) {
      const answer = signal.responses[key];
      if (answer !== undefined) responses[key] = answer;
    }
    this.#dispatch({ kind: 'answer', taskId: signal.taskId, responses });
  }

  /**
   * Sent by another replica (a copy of this one's own, put back under another name, is not news),
   * recently, after this replica began to listen, and heard for the first time.
   */
  #fresh(body: Partial<Stamp>): boolean {
    const { o, t, n } = body;
    if (typeof o !== 'string' || o === this.#bus.replica) return false;
    if (typeof t !== 'number' || !Number.isFinite(t) || typeof n !== 'string' || n === '') return false;
    if (t < this.#since - START_SKEW_MS) return false;
    return this.#freshness.accept(t, n);
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
