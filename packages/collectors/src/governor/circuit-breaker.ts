/**
 * A per-bucket circuit breaker (RESILIENCE.md 2.4): after `threshold` consecutive calls that
 * gave up on throttling or transient errors it opens and rejects calls for `cooldown` seconds;
 * then one probe goes through. A successful probe closes it and restores the base cooldown, a
 * failed one reopens it with the cooldown doubled, up to 600 seconds.
 */
export class CircuitBreaker {
  #failures = 0;
  #openedAt: number | null = null;
  #cooldown: number;
  #probing = false;

  constructor(
    private readonly threshold: number,
    private readonly baseCooldown: number,
    private readonly maxCooldown = 600,
  ) {
    this.#cooldown = baseCooldown;
  }

  get state(): 'closed' | 'open' | 'half_open' {
    if (this.#openedAt === null) return 'closed';
    return this.#probing ? 'half_open' : 'open';
  }

  /** Seconds until a probe may go, or 0 when a call may be sent now. */
  blockedFor(now: number): number {
    if (this.#openedAt === null) return 0;
    const left = this.#openedAt + this.#cooldown - now;
    if (left > 0) return left;
    if (this.#probing) return this.#cooldown; // one probe at a time
    this.#probing = true;
    return 0;
  }

  success(): 'reset' | null {
    const wasOpen = this.#openedAt !== null;
    this.#failures = 0;
    this.#openedAt = null;
    this.#probing = false;
    this.#cooldown = this.baseCooldown;
    return wasOpen ? 'reset' : null;
  }

  /** Returns 'trip' when this failure opened the breaker. */
  failure(now: number): 'trip' | null {
    if (this.#probing) {
      this.#probing = false;
      this.#openedAt = now;
      this.#cooldown = Math.min(this.maxCooldown, this.#cooldown * 2);
      return 'trip';
    }
    this.#failures += 1;
    if (this.#openedAt === null && this.#failures >= this.threshold) {
      this.#openedAt = now;
      return 'trip';
    }
    return null;
  }
}
