import type { Workspace } from '../workspace/workspace.js';
import { liveState } from './state.js';

/** The guard and throttling state, served by `rate_limit_status` and `cloudg://ratelimit`. */
export function rateLimitStatus(ws: Workspace) {
  const state = liveState(ws);
  return { live_guard: state.guard.status(), throttling: state.throttling.snapshot() };
}
