import type { ThrottleEvent } from '@cloudg/catalog';
import { CircuitBreaker } from './circuit-breaker.js';
import { classify, errorCode, retryAfterSeconds } from './classify.js';
import { CircuitOpenError, RetriesExhaustedError } from './errors.js';

/** One event of the governor: the catalog's `ThrottleEvent`, reported through the engine's `throttle` hook. */
export type GovernorEvent = ThrottleEvent;

/** Where one call goes: `provider/account/region/service`, the bucket breakers and rates key on. */
export interface CallScope {
  provider: string;
  account: string;
  region: string | null;
  service: string;
  operation?: string;
}

export interface GovernorOptions {
  /** Retries of a throttled or transient call (RESILIENCE.md default 8). */
  maxRetries?: number;
  /** Base and cap of the decorrelated-jitter backoff, in seconds (0.5 and 60). */
  baseBackoffSeconds?: number;
  maxBackoffSeconds?: number;
  /** Pauses from a server's Retry-After are capped here (300 s). */
  maxRetryAfterSeconds?: number;
  breakerThreshold?: number;
  breakerCooldownSeconds?: number;
  /** The ceiling of each bucket's adaptive rate, calls per second (20). */
  maxRps?: number;
  /** Injected for tests: a clock in seconds, a sleep that honours the signal, a random source. */
  now?: () => number;
  sleep?: (seconds: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  onEvent?: (event: GovernorEvent) => void;
}

interface Bucket {
  breaker: CircuitBreaker;
  rate: number;
  lastThrottle: number;
  nextSlot: number;
}

/** Per-task counters of calls lost to throttling, so a task's coverage can say PARTIAL. */
export interface TaskLedger {
  gaveUp: number;
  skipped: number;
  reasons: string[];
}

export function newLedger(): TaskLedger {
  return { gaveUp: 0, skipped: 0, reasons: [] };
}

/** The ledger as the text of a PARTIAL coverage entry (RESILIENCE.md "ThrottleLedger"). */
export function ledgerSummary(ledger: TaskLedger): string | null {
  if (ledger.gaveUp === 0 && ledger.skipped === 0) return null;
  const parts: string[] = [];
  if (ledger.gaveUp > 0) parts.push(`${ledger.gaveUp} call(s) gave up after retries`);
  if (ledger.skipped > 0) parts.push(`${ledger.skipped} call(s) skipped (circuit open)`);
  return `throttled: ${parts.join(', ')} (${ledger.reasons.slice(0, 5).join('; ')})`;
}

export function abortableSleep(seconds: number, signal?: AbortSignal): Promise<void> {
  if (seconds <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, seconds * 1000);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The throttling governor every collector call goes through (RESILIENCE.md, site/api/resilience.md):
 * a circuit breaker and an adaptive rate per bucket, and retries of throttled and transient
 * errors with decorrelated-jitter backoff never shorter than the server's Retry-After. A
 * throttle halves the bucket's rate (at most once a second); after five quiet seconds each
 * success gives back 5% of the ceiling. Access denied and other fatal errors are raised at once
 * and leave the breaker alone, so a denied service never opens a circuit.
 *
 * The SDK clients are built with their own retries off (`maxAttempts: 1`), so this is the one
 * place a call is retried and every retry is counted.
 */
export class Governor {
  readonly #buckets = new Map<string, Bucket>();
  readonly #o: Required<Omit<GovernorOptions, 'onEvent'>> & { onEvent?: (event: GovernorEvent) => void };

  constructor(options: GovernorOptions = {}) {
    this.#o = {
      maxRetries: options.maxRetries ?? 8,
      baseBackoffSeconds: options.baseBackoffSeconds ?? 0.5,
      maxBackoffSeconds: options.maxBackoffSeconds ?? 60,
      maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 300,
      breakerThreshold: options.breakerThreshold ?? 5,
      breakerCooldownSeconds: options.breakerCooldownSeconds ?? 60,
      maxRps: options.maxRps ?? 20,
      now: options.now ?? (() => Date.now() / 1000),
      sleep: options.sleep ?? abortableSleep,
      random: options.random ?? Math.random,
      onEvent: options.onEvent,
    };
  }

  /** Bucket key, e.g. `aws/123456789012/us-east-1/ec2` (EC2 is paced per operation). */
  static bucketOf(scope: CallScope): string {
    const base = `${scope.provider}/${scope.account}/${scope.region ?? '*'}/${scope.service}`;
    return scope.provider === 'aws' && scope.service === 'ec2' && scope.operation
      ? `${base}/${scope.operation}`
      : base;
  }

  breakerState(scope: CallScope): 'closed' | 'open' | 'half_open' {
    return this.#buckets.get(Governor.bucketOf(scope))?.breaker.state ?? 'closed';
  }

  async call<T>(
    scope: CallScope,
    fn: () => Promise<T>,
    signal?: AbortSignal,
    ledger?: TaskLedger,
  ): Promise<T> {
    const bucketName = Governor.bucketOf(scope);
    const bucket = this.#bucket(bucketName);
    const eventScope = `${scope.provider}/${scope.account}`;
    const emit = (event: Omit<GovernorEvent, 'scope' | 'service' | 'bucket'>) => {
      try {
        this.#o.onEvent?.({ scope: eventScope, service: scope.service, bucket: bucketName, ...event });
      } catch {
        // A listener's failure must never break a collection.
      }
    };
    let previousBackoff = this.#o.baseBackoffSeconds;
    for (let attempt = 1; ; attempt += 1) {
      signal?.throwIfAborted();
      const blocked = bucket.breaker.blockedFor(this.#o.now());
      if (blocked > 0) {
        const error = new CircuitOpenError(bucketName, blocked);
        // One message per refusal: `skipped` only names the service for the skipped list.
        emit({ kind: 'rejected', message: error.message });
        emit({ kind: 'skipped' });
        if (ledger) {
          ledger.skipped += 1;
          ledger.reasons.push(error.message);
        }
        throw error;
      }
      await this.#pace(bucket, signal);
      emit({ kind: 'call' });
      try {
        const result = await fn();
        this.#recover(bucket);
        if (bucket.breaker.success() === 'reset') emit({ kind: 'breaker_reset' });
        return result;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const kind = classify(error);
        if (kind === 'denied' || kind === 'fatal') {
          // The service answered: proof it is up, so the breaker counts a success.
          bucket.breaker.success();
          throw error;
        }
        const now = this.#o.now();
        if (kind === 'throttled') {
          emit({ kind: 'throttled' });
          if (now - bucket.lastThrottle >= 1) {
            bucket.rate = Math.max(0.1, bucket.rate / 2);
            emit({
              kind: 'slowed',
              rate: bucket.rate,
              message: `${bucketName}: throttled (${errorCode(error)}), slowed to ${bucket.rate} rps`,
            });
          }
          bucket.lastThrottle = now;
        } else emit({ kind: 'transient_error' });
        if (attempt > this.#o.maxRetries) {
          const gaveUp = new RetriesExhaustedError(bucketName, attempt, error);
          emit({ kind: 'gave_up', message: gaveUp.message });
          if (ledger) {
            ledger.gaveUp += 1;
            ledger.reasons.push(`${bucketName}: ${errorCode(error)}`);
          }
          if (bucket.breaker.failure(now) === 'trip')
            emit({
              kind: 'breaker_trip',
              message: `${bucketName}: circuit opened after repeated throttling`,
            });
          throw gaveUp;
        }
        const jitter =
          this.#o.baseBackoffSeconds + this.#o.random() * (3 * previousBackoff - this.#o.baseBackoffSeconds);
        let wait = Math.min(this.#o.maxBackoffSeconds, jitter);
        const hint = retryAfterSeconds(error);
        if (hint !== null) wait = Math.max(wait, Math.min(hint, this.#o.maxRetryAfterSeconds));
        previousBackoff = wait;
        emit({ kind: 'retry', wait_seconds: wait });
        await this.#o.sleep(wait, signal);
      }
    }
  }

  #bucket(name: string): Bucket {
    let bucket = this.#buckets.get(name);
    if (!bucket) {
      bucket = {
        breaker: new CircuitBreaker(this.#o.breakerThreshold, this.#o.breakerCooldownSeconds),
        rate: this.#o.maxRps,
        lastThrottle: Number.NEGATIVE_INFINITY,
        nextSlot: 0,
      };
      this.#buckets.set(name, bucket);
    }
    return bucket;
  }

  /** Space calls 1/rate apart only once a bucket has been slowed: unthrottled calls go at once. */
  async #pace(bucket: Bucket, signal?: AbortSignal): Promise<void> {
    if (bucket.rate >= this.#o.maxRps) return;
    const now = this.#o.now();
    const slot = Math.max(now, bucket.nextSlot);
    bucket.nextSlot = slot + 1 / bucket.rate;
    if (slot > now) await this.#o.sleep(slot - now, signal);
  }

  #recover(bucket: Bucket): void {
    if (bucket.rate < this.#o.maxRps && this.#o.now() - bucket.lastThrottle >= 5)
      bucket.rate = Math.min(this.#o.maxRps, bucket.rate + this.#o.maxRps * 0.05);
  }
}
