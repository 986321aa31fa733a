import type { LiveClock } from '../../src/index.js';

/** A clock the test moves by hand; scheduled callbacks fire when their time is passed. */
export class FakeClock implements LiveClock {
  t = 1_000_000;
  #timers: { at: number; fn: () => void; live: boolean }[] = [];

  now(): number {
    return this.t;
  }

  schedule(fn: () => void, ms: number): () => void {
    const timer = { at: this.t + ms, fn, live: true };
    this.#timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  advance(ms: number): void {
    this.t += ms;
    for (const timer of this.#timers.filter((x) => x.live && x.at <= this.t)) {
      timer.live = false;
      timer.fn();
    }
  }
}
