import type { ThrottleEvent, ThrottlingSnapshot } from './engine.js';

/** The most recent governor messages kept for `rate_limit_status`. */
const MAX_MESSAGES = 20;

const TOTAL_OF: Partial<Record<ThrottleEvent['kind'], string>> = {
  call: 'calls',
  throttled: 'throttled',
  transient_error: 'transient_errors',
  retry: 'retries',
  gave_up: 'gave_up',
  rejected: 'rejected',
  breaker_trip: 'breaker_trips',
};

/**
 * The summary of the collectors' throttling governor, built from the events engines report
 * through `EngineHooks.throttle`: totals, recent messages, skipped services per scope, per-scope
 * counters, open circuit breakers and slowed rate buckets.
 */
export class ThrottlingLedger {
  #totals: Record<string, number> = emptyTotals();
  #messages: string[] = [];
  #skipped = new Map<string, Set<string>>();
  #scopes = new Map<string, Record<string, number>>();
  #breakers = new Map<string, string>();
  #slowed = new Map<string, number>();

  record(event: ThrottleEvent): void {
    const total = TOTAL_OF[event.kind];
    if (total !== undefined) {
      this.#totals[total] = (this.#totals[total] ?? 0) + 1;
      const scope = this.#scopes.get(event.scope) ?? {};
      scope[total] = (scope[total] ?? 0) + 1;
      this.#scopes.set(event.scope, scope);
    }
    if (event.wait_seconds) this.#totals.wait_seconds = (this.#totals.wait_seconds ?? 0) + event.wait_seconds;
    const key = event.service ? `${event.scope}/${event.service}` : event.scope;
    if (event.kind === 'skipped' && event.service) {
      const set = this.#skipped.get(event.scope) ?? new Set();
      set.add(event.service);
      this.#skipped.set(event.scope, set);
    }
    if (event.kind === 'breaker_trip') this.#breakers.set(key, 'open');
    if (event.kind === 'breaker_reset') this.#breakers.delete(key);
    if (event.kind === 'slowed' && event.bucket && event.rate !== undefined)
      this.#slowed.set(event.bucket, event.rate);
    if (event.message) {
      this.#messages.push(event.message);
      if (this.#messages.length > MAX_MESSAGES) this.#messages.shift();
    }
  }

  snapshot(): ThrottlingSnapshot {
    const sorted = <V>(m: Map<string, V>) =>
      Object.fromEntries([...m.entries()].sort(([a], [b]) => a.localeCompare(b)));
    return {
      totals: { ...this.#totals },
      messages: [...this.#messages],
      skipped: sorted(new Map([...this.#skipped].map(([k, v]) => [k, [...v].sort()]))),
      scopes: sorted(new Map([...this.#scopes].map(([k, v]) => [k, { ...v }]))),
      breakers: sorted(this.#breakers),
      slowed_buckets: sorted(this.#slowed),
    };
  }
}

function emptyTotals(): Record<string, number> {
  return {
    calls: 0,
    throttled: 0,
    transient_errors: 0,
    retries: 0,
    gave_up: 0,
    rejected: 0,
    breaker_trips: 0,
    wait_seconds: 0,
  };
}
