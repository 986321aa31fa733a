/** Rate limits compiled from their configuration (section 6.5). */
import { GlobList } from '../decide/glob.js';
import type { PolicyCallKind, RateLimitConfig, RatePeriod } from '../schema/config.js';

const PERIOD_SECONDS: Record<RatePeriod, number> = { second: 1, minute: 60, hour: 3600, day: 86400 };

export interface CompiledLimit {
  /** Unique within a policy: buckets are keyed by it. */
  readonly id: string;
  readonly config: RateLimitConfig;
  /** Bucket capacity. */
  readonly capacity: number;
  /** Tokens added per second. */
  readonly refillPerSecond: number;
  /** `2/minute`, as shown to callers. */
  readonly label: string;
  covers(kind: PolicyCallKind, identity: string): boolean;
}

export function compileLimit(config: RateLimitConfig, id: string): CompiledLimit {
  const tools = new GlobList(config.tools);
  const kinds = new Set<string>(config.kinds);
  return {
    id,
    config,
    capacity: config.burst ?? Math.max(1, Math.ceil(config.rate)),
    refillPerSecond: config.rate / PERIOD_SECONDS[config.per],
    label: `${config.rate}/${config.per}`,
    covers(kind, identity) {
      if (kinds.size > 0 && !kinds.has(kind) && !(kind === 'resource_template' && kinds.has('resource'))) {
        return false;
      }
      return tools.matches(identity);
    },
  };
}
