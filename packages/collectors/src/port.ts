import type { CloudgConfig, InventoryResult } from '@cloudg/catalog';
import type { GovernorEvent } from './governor/governor.js';

/*
 * The part of the catalog's live engine port (packages/catalog/src/live/engine.ts) the
 * collectors implement, restated structurally: the port was being written in parallel and is
 * not exported by @cloudg/catalog yet. The shapes match it field for field, so an engine built
 * here is assignable to the catalog's `CloudgEngine`; once the catalog exports the port these
 * become re-exports of it.
 */

export type LiveProvider = 'aws' | 'azure' | 'gcp';

export type EnginePhase =
  | 'inventory_mapping'
  | 'collection'
  | 'scanning'
  | 'ingest'
  | 'analysis'
  | 'normalisation'
  | 'reporting';

export interface EngineHooks {
  phase(phase: EnginePhase): void;
  error(phase: EnginePhase, message: string): void;
  progress(message: string): void;
  throttle(event: GovernorEvent): void;
}

export interface EngineRunContext {
  config: CloudgConfig;
  providers: readonly LiveProvider[];
  regions: readonly string[] | null;
  signal: AbortSignal;
  hooks: EngineHooks;
}

export interface MapInventoryRequest extends EngineRunContext {
  services: readonly string[] | null;
  taggingSweep: boolean | null;
}

export type CollectRequest = EngineRunContext;

export type EngineCollection = Partial<InventoryResult>;

export interface CollectorEngine {
  mapInventory(request: MapInventoryRequest): Promise<EngineCollection>;
  collect(request: CollectRequest): Promise<EngineCollection>;
}

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
