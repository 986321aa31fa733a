/**
 * Token buckets (section 9). A bucket starts full, refills continuously and a call takes one
 * whole token. When several limits apply, all buckets are checked before any is charged, so a
 * call refused by one bucket costs nothing in the others.
 */
import { RateLimitedError } from '@cloudg/core';
import type { PolicyCallKind, RateScope } from '../schema/config.js';
import type { CompiledLimit } from './limits.js';

/** Seconds on a monotonic clock. */
export type Clock = () => number;

export const monotonicSeconds: Clock = () => performance.now() / 1000;

interface Bucket {
  tokens: number;
  updated: number;
}

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
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: Clock;

  constructor(clock: Clock = monotonicSeconds) {
    this.clock = clock;
  }

  /** Forget every bucket: all limits start full again. */
  reset(): void {
    this.buckets.clear();
  }

  /** Take a token from every applicable bucket, or throw RateLimitedError and take none. */
  acquire(limits: readonly CompiledLimit[], call: RateCall): void {
    if (limits.length === 0) return;
    const now = this.clock();
    const charged: Bucket[] = [];
    let refusal: { limit: CompiledLimit; wait: number } | undefined;
    for (const limit of limits) {
      if (!limit.covers(call.kind, call.identity)) continue;
      const key = `${limit.id}\u0001${scopeKey(limit.config.scope, call)}`;
      let bucket = this.buckets.get(key);
      if (!bucket) {
        bucket = { tokens: limit.capacity, updated: now };
        this.buckets.set(key, bucket);
      } else {
        const elapsed = Math.max(0, now - bucket.updated);
        bucket.tokens = Math.min(limit.capacity, bucket.tokens + elapsed * limit.refillPerSecond);
        bucket.updated = now;
      }
      if (bucket.tokens >= 1) {
        charged.push(bucket);
      } else {
        const wait = (1 - bucket.tokens) / limit.refillPerSecond;
        if (!refusal || wait > refusal.wait) refusal = { limit, wait };
      }
    }
    if (refusal) {
      const { limit, wait } = refusal;
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
    for (const bucket of charged) bucket.tokens -= 1;
  }
}
