/**
 * Where token buckets live. The limiter decides which buckets a call touches and what a
 * refusal says; a store only holds the buckets and applies one all-or-nothing take. The
 * in-process store below is the default; a shared store (for example one in Redis, so that
 * several replicas enforce one limit) implements the same port and may answer asynchronously.
 */

/** One bucket a call must take a token from. */
export interface BucketRequest {
  /** Unique per limit and scope value. */
  readonly key: string;
  readonly capacity: number;
  /** Tokens added per second. */
  readonly refillPerSecond: number;
}

/** Either every bucket gave a token, or none did and `index` names the bucket that waits longest. */
export type BucketOutcome =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly index: number; readonly wait: number };

export interface RateBucketStore {
  /**
   * Refill every requested bucket to `now` (seconds), then take one token from each if all
   * hold at least one, else take none. A bucket seen for the first time starts full.
   */
  take(requests: readonly BucketRequest[], now: number): BucketOutcome | Promise<BucketOutcome>;
  /** Forget every bucket: all limits start full again. */
  reset(): void | Promise<void>;
}

interface Bucket {
  tokens: number;
  updated: number;
}

/** Buckets in this process's memory: the behaviour of a single server. */
export class InProcessBucketStore implements RateBucketStore {
  private readonly buckets = new Map<string, Bucket>();

  reset(): void {
    this.buckets.clear();
  }

  take(requests: readonly BucketRequest[], now: number): BucketOutcome {
    const charged: Bucket[] = [];
    let refusal: { index: number; wait: number } | undefined;
    requests.forEach((request, index) => {
      let bucket = this.buckets.get(request.key);
      if (!bucket) {
        bucket = { tokens: request.capacity, updated: now };
        this.buckets.set(request.key, bucket);
      } else {
        const elapsed = Math.max(0, now - bucket.updated);
        bucket.tokens = Math.min(request.capacity, bucket.tokens + elapsed * request.refillPerSecond);
        bucket.updated = now;
      }
      if (bucket.tokens >= 1) {
        charged.push(bucket);
      } else {
        const wait = (1 - bucket.tokens) / request.refillPerSecond;
        if (!refusal || wait > refusal.wait) refusal = { index, wait };
      }
    });
    if (refusal) return { admitted: false, ...refusal };
    for (const bucket of charged) bucket.tokens -= 1;
    return { admitted: true };
  }
}
