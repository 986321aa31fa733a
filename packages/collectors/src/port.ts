import type { CloudgEngine, EngineHooks } from '@cloudg/catalog';

/*
 * The collectors implement the catalog's live engine port (`CloudgEngine`, exported by
 * @cloudg/catalog); these are the few helpers around it this package adds.
 */

export type {
  CloudgEngine,
  CollectRequest,
  EngineCollection,
  EngineHooks,
  EnginePhase,
  EngineRunContext,
  LiveProvider,
  MapInventoryRequest,
  ThrottleEvent,
} from '@cloudg/catalog';

/** Hooks that ignore everything, for callers outside the catalog (scripts, tests). */
export const SILENT_HOOKS: EngineHooks = {
  phase() {},
  error() {},
  progress() {},
  throttle() {},
};

/** Call a hook without letting a listener's failure reach the collection. */
export function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Hooks are observers; a broken one must not stop a collection.
  }
}

/** The engine as the catalog's port sees it, plus the governor it keeps between runs. */
export type CollectorEngine = CloudgEngine;
