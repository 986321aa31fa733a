import type { Registry } from '@cloudg/core';
import { rateLimitStatus } from '../../live/status.js';
import type { Workspace } from '../../workspace/workspace.js';

/** `rate_limit_status`: local state only, so it is registered whether or not an engine is. */
export function registerRateLimitStatus(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'rate_limit_status',
    title: 'Rate limit status',
    description:
      'The live operation guard and cloud API throttling state, without calling any cloud API: operations in flight, scopes cooling down (seconds left), started and joined counters, the limits, and the throttling governor summary (totals, recent messages, skipped services, open circuit breakers, slowed buckets). Check it before asking for a live collection. Also served as cloudg://ratelimit.',
    category: 'live',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    handler: (ctx) => rateLimitStatus(ctx.app),
  });
}
