import type { Registry } from '@cloudg/core';
import { rateLimitStatus } from '../live/status.js';
import type { Workspace } from '../workspace/workspace.js';

export const RATELIMIT_URI = 'cloudg://ratelimit';

/** `cloudg://ratelimit`: the same object as `rate_limit_status`, for clients that read before they call. */
export function registerLiveResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: RATELIMIT_URI,
    name: 'ratelimit',
    title: 'Live guard and throttling state',
    description:
      'Live operations in flight, scopes cooling down and the throttling governor summary (rate_limit_status), without calling any cloud API.',
    category: 'live',
    sensitivity: 'internal',
    mimeType: 'application/json',
    handler: (ctx) => rateLimitStatus(ctx.app),
  });
}
