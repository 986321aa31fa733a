/**
 * Cancellation for one request, cheaper than an `AbortController`: transports create one per
 * request, and most requests finish without anyone cancelling them or asking for a signal. The
 * `AbortSignal` is built only when something asks for it, and listeners are a plain list.
 */
/**
 * What a listener may do with a cancellation: read it and follow it, not trigger it. Structural,
 * so a cancellation made by another copy of this package is recognised too.
 */
export interface CancellationView {
  readonly aborted: boolean;
  readonly reason: unknown;
  onAbort(listener: () => void): () => void;
  readonly signal: AbortSignal;
}

export class Cancellation implements CancellationView {
  #aborted = false;
  #reason: unknown;
  #listeners: (() => void)[] | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** Cancel: listeners run once, in the order they were added; later calls do nothing. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.#controller?.abort(this.#reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // One failing listener must not keep the others from learning of the cancellation.
      }
    }
  }

  /**
   * Run `listener` on cancellation (at once if already cancelled). Returns the function that
   * removes it again.
   */
  onAbort(listener: () => void): () => void {
    if (this.#aborted) {
      listener();
      return noop;
    }
    this.#listeners ??= [];
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners?.indexOf(listener) ?? -1;
      if (index !== -1) this.#listeners?.splice(index, 1);
    };
  }

  /** A standard signal that follows this cancellation, created on first use. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
}

function noop(): void {}

/** Something a caller can cancel a call with: a standard signal or a `Cancellation` (read-only). */
export type CancelSource = AbortSignal | CancellationView;

/** A `Cancellation` (from any copy of this package) rather than an `AbortSignal`. */
export function isCancellationView(source: CancelSource): source is CancellationView {
  return typeof (source as Partial<CancellationView>).onAbort === 'function';
}

/** Listen for the cancellation of either kind of source; returns the function that stops listening. */
export function onCancel(source: CancelSource, listener: () => void): () => void {
  if (isCancellationView(source)) return source.onAbort(listener);
  if (source.aborted) {
    listener();
    return noop;
  }
  source.addEventListener('abort', listener, { once: true });
  return () => source.removeEventListener('abort', listener);
}
