import type { Workspace } from '../workspace/workspace.js';
import type { LiveClock } from './clock.js';
import { LiveOperationGuard } from './guard.js';
import type { LiveGuardLedger } from './guard-ledger.js';
import { defaultPreflightEnvironment, type PreflightEnvironment } from './preflight-env.js';
import { ThrottlingLedger } from './throttling.js';

/** A workspace's live state: the guard, the throttling ledger and where the preflight looks. */
export interface LiveState {
  guard: LiveOperationGuard;
  throttling: ThrottlingLedger;
  preflight: PreflightEnvironment;
  /**
   * Save each live collection under `<output_dir>/live/` for `restoreLiveDatasets` (the
   * operator's choice: the files hold the estate as collected, secrets included). Default off.
   */
  persist: boolean;
}

/*
 * Kept beside the workspace rather than on it: the workspace is the data and knows nothing of
 * live collection, and the live tools, the ratelimit resource and the tests reach the same state
 * through the workspace they already hold.
 */
const states = new WeakMap<Workspace, LiveState>();

/** The live state of `workspace`, created from its config on first use. */
export function liveState(workspace: Workspace): LiveState {
  let state = states.get(workspace);
  if (!state) {
    state = {
      guard: LiveOperationGuard.fromConfig(workspace.config),
      throttling: new ThrottlingLedger(),
      preflight: defaultPreflightEnvironment(),
      persist: false,
    };
    states.set(workspace, state);
  }
  return state;
}

/**
 * Replace parts of a workspace's live state: a guard with another clock or limits, a preflight
 * environment (tests, embedders). `clock` alone rebuilds the guard from the config with it and
 * bounds the preflight with it too; `shared` rebuilds it on a ledger shared by replicas.
 */
export function configureLive(
  workspace: Workspace,
  parts: {
    guard?: LiveOperationGuard;
    clock?: LiveClock;
    /** Decide admissions in a ledger shared by replicas (see LiveGuardLedger). */
    shared?: { ledger: LiveGuardLedger; leaseMs?: number };
    preflight?: Partial<PreflightEnvironment>;
    persist?: boolean;
  },
): LiveState {
  const state = liveState(workspace);
  if (parts.guard) state.guard = parts.guard;
  else if (parts.clock || parts.shared)
    state.guard = LiveOperationGuard.fromConfig(workspace.config, parts.clock, parts.shared);
  const clock = parts.clock ? { clock: parts.clock } : {};
  if (parts.persist !== undefined) state.persist = parts.persist;
  if (parts.preflight || parts.clock) state.preflight = { ...state.preflight, ...clock, ...parts.preflight };
  return state;
}
