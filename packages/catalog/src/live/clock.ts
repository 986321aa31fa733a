/**
 * Time as the live guard and the preflight see it, so tests can move it by hand instead of
 * waiting for real cooldowns and 25-second bounds.
 */
export interface LiveClock {
  /** Milliseconds, monotonic enough for durations (Date.now is fine). */
  now(): number;
  /** Call `fn` after `ms`; returns a function that cancels it. */
  schedule(fn: () => void, ms: number): () => void;
}

export const systemClock: LiveClock = {
  now: () => Date.now(),
  schedule(fn, ms) {
    const timer = setTimeout(fn, ms);
    // A pending guard timeout must never keep the process alive on its own.
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

/** Resolve after `ms` of the clock's time, or reject when `signal` aborts. */
export function sleep(clock: LiveClock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = clock.schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
