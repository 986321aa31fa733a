/**
 * Token buckets (section 9). A bucket starts full, refills continuously and a call takes one
 * whole token. When several limits apply, all buckets are checked before any is charged, so a
 * call refused by one bucket costs nothing in the others.
 */
import { RateLimitedError } from '@cloudg/core';
import type { PolicyCallKind, RateScope } from '../schema/config.js';
import {
  type BucketOutcome,
  type BucketRequest,
  InProcessBucketStore,
  type RateBucketStore,
} from './bucket-store.js';
import type { CompiledLimit } from './limits.js';

/** Seconds on a monotonic clock. */
export type Clock = () => number;

export const monotonicSeconds: Clock = () => performance.now() / 1000;

export interface RateCall {
  principalId: string;
  /** Tool or prompt name, resource URI or URI template. */
  identity: string;
  /** The kind matched against a limit's `kinds`. */
  kind: PolicyCallKind;
  /** The word used in the refusal: `tool`, `resource`, `prompt` or `completion`. */
  label: string;
}

export interface RateLimitData {
  retry_after: number;
  limit: string;
  scope: RateScope;
}

function scopeKey(scope: RateScope, call: RateCall): string {
  switch (scope) {
    case 'principal':
      return call.principalId;
    case 'tool':
      return call.identity;
    case 'principal_tool':
      return `${call.principalId}\u0000${call.identity}`;
    default:
      return '';
  }
}

export class RateLimiter {
  private readonly store: RateBucketStore;
  private readonly clock: Clock;

  /** A shared store needs a clock every replica agrees on (wall-clock seconds), not a monotonic one. */
  constructor(clock: Clock = monotonicSeconds, store: RateBucketStore = new InProcessBucketStore()) {
    this.clock = clock;
    this.store = store;
  }

  /** Forget every bucket: all limits start full again. */
  reset(): void | Promise<void> {
    return this.store.reset();
  }

  /**
   * Take a token from every applicable bucket, or throw RateLimitedError and take none.
   * Synchronous with the in-process store; a promise with a shared one.
   */
  acquire(limits: readonly CompiledLimit[], call: RateCall): void | Promise<void> {
    if (limits.length === 0) return;
    const applied: CompiledLimit[] = [];
    const requests: BucketRequest[] = [];
    for (const limit of limits) {
      if (!limit.covers(call.kind, call.identity)) continue;
      applied.push(limit);
      requests.push({
        key: `${limit.id}\u0001${scopeKey(limit.config.scope, call)}`,
        capacity: limit.capacity,
        refillPerSecond: limit.refillPerSecond,
      });
    }
    if (requests.length === 0) return;
    const outcome = this.store.take(requests, this.clock());
    if (outcome instanceof Promise) return outcome.then((settled) => refuseIfDenied(settled, applied, call));
    refuseIfDenied(outcome, applied, call);
  }
}

function refuseIfDenied(outcome: BucketOutcome, applied: readonly CompiledLimit[], call: RateCall): void {
  if (outcome.admitted) return;
  const limit = applied[outcome.index] as CompiledLimit;
  const wait = outcome.wait;
  const data: RateLimitData = {
    retry_after: Math.round(wait * 100) / 100,
    limit: limit.label,
    scope: limit.config.scope,
  };
  throw new RateLimitedError(
    `Rate limit exceeded for ${call.label} '${call.identity}' (${limit.label}); retry in ${wait.toFixed(1)}s`,
    { data },
  );
}
