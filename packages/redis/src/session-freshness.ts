/**
 * Whether a sealed signal between replicas is fresh. The seal proves a replica sent it, not
 * when: someone who can write to Redis could publish a copy again later (a cancellation when the
 * client has reused the request id, an answer, an end). So each signal carries its send time and
 * a nonce inside the seal, and a receiving replica takes it only while it is younger than
 * `maxAgeMs` (the replicas' clocks agree by NTP, which docs/replicas.md requires anyway) and only
 * the first time it sees its nonce. A nonce is remembered until its signal is too old to pass
 * the age check anyway, so the memory is bounded by the signals of one window.
 *
 * A replica started within the window has not seen the earlier nonces: what a signal may still
 * do then is bounded by its receiver (a cancellation only stops requests started before it was
 * sent, an answer only settles the question whose unique id it carries).
 */

/** How old (or, with a clock ahead, how far in the future) a signal may be. */
export const SIGNAL_MAX_AGE_MS = 30_000;

export class SignalFreshness {
  /** Nonce → when it may be forgotten (its signal's time plus the bound), in the order heard. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly maxAgeMs = SIGNAL_MAX_AGE_MS) {}

  /** True the first time a signal sent at `sentAt` with `nonce` is seen within the bound. */
  accept(sentAt: number, nonce: string, now = Date.now()): boolean {
    this.forget(now);
    if (Math.abs(now - sentAt) > this.maxAgeMs) return false;
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, sentAt + this.maxAgeMs);
    return true;
  }

  /** Nonces remembered (for tests of the bound on memory). */
  get size(): number {
    return this.seen.size;
  }

  /**
   * Drop nonces whose signals the age check now refuses. Heard in roughly time order, so the
   * oldest are first; one heard out of order is dropped a little later, never too early.
   */
  private forget(now: number): void {
    for (const [nonce, until] of this.seen) {
      if (until >= now) return;
      this.seen.delete(nonce);
    }
  }
}
