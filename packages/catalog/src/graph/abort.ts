/**
 * Cooperative cancellation for long walks: checking an AbortSignal costs little, but not nothing,
 * so loops check it every `every` steps.
 */
export class AbortCheck {
  #count = 0;
  readonly #signal: AbortSignal | undefined;
  readonly #every: number;

  constructor(signal?: AbortSignal, every = 1024) {
    this.#signal = signal;
    this.#every = every;
  }

  /** Throw the abort reason once the signal has fired (checked every `every` calls). */
  tick(): void {
    if (this.#signal === undefined) return;
    this.#count += 1;
    if (this.#count % this.#every === 0) this.#signal.throwIfAborted();
  }

  /** Check now. */
  check(): void {
    this.#signal?.throwIfAborted();
  }
}
