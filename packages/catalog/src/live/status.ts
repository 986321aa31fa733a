import type { Workspace } from '../workspace/workspace.js';
import { LIVE_PROVIDERS } from './engine.js';
import { scopesOf } from './scopes.js';
import { liveState } from './state.js';

/**
 * The guard and throttling state, served by `rate_limit_status` and `cloudg://ratelimit`. With a
 * guard shared by replicas, the other replicas' flights too, named by the scopes this replica's
 * config reaches (every replica serves the same config).
 */
export async function rateLimitStatus(ws: Workspace) {
  const state = liveState(ws);
  const live_guard = await state.guard.sharedStatus(scopesOf(ws.config, LIVE_PROVIDERS));
  return { live_guard, throttling: state.throttling.snapshot() };
}
