/**
 * The pub/sub side of a replica: one subscriber connection (Redis wants a connection of its own
 * for that), on which it hears the signals sent to it, those sent to every replica, and the
 * changes and task signals other replicas announce. ioredis subscribes again by itself after a
 * reconnect; whatever was published meanwhile is missed, which is why streams keep a log.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export class ReplicaBus {
  /** This replica's id, fresh for every process: a restarted replica is a new one. */
  readonly replica = randomBytes(6).toString('hex');
  readonly direct: string;
  readonly broadcast: string;
  readonly changes: string;
  /** Task signals (RedisTaskRelay): cancellations, answers and status changes. */
  readonly tasks: string;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private readonly resubscribed = new Set<() => void>();
  private started = false;
  /** Settles once the channels are subscribed. */
  readonly ready: Promise<void>;

  constructor(client: Redis, prefix: string) {
    this.direct = `${prefix}replica:${this.replica}`;
    this.broadcast = `${prefix}bus`;
    this.changes = `${prefix}changes`;
    this.tasks = `${prefix}tasks:signals`;
    this.subscriber = client.duplicate();
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
    // After a reconnect ioredis subscribes again by itself; once Redis confirms it, whoever
    // depends on the messages is told that some may have been missed meanwhile.
    this.subscriber.on('ready', () => {
      if (!this.started) return;
      this.subscriber.subscribe(this.direct, this.broadcast, this.changes, this.tasks).then(
        () => {
          for (const handler of [...this.resubscribed]) handler();
        },
        () => {},
      );
    });
    this.ready = this.start();
    // A failed start is reported by the first operation that waits for it.
    this.ready.catch(() => {});
  }

  private async start(): Promise<void> {
    if (this.subscriber.status === 'wait') await this.subscriber.connect();
    await this.subscriber.subscribe(this.direct, this.broadcast, this.changes, this.tasks);
    this.started = true;
  }

  /** Told each time the channels are subscribed again after a lost connection. */
  onResubscribed(handler: () => void): () => void {
    this.resubscribed.add(handler);
    return () => this.resubscribed.delete(handler);
  }

  on(channel: string, handler: (message: string) => void): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  close(): void {
    this.handlers.clear();
    this.resubscribed.clear();
    this.subscriber.disconnect();
  }
}
