import type { Registry } from '@cloudg/core';
import type { CloudgEngine } from '../../live/engine.js';
import type { Workspace } from '../../workspace/workspace.js';
import { registerCollectAssets } from './collect-assets.js';
import { registerMapInventory } from './map-inventory.js';
import { registerRateLimitStatus } from './rate-limit-status.js';
import { registerRunPipeline } from './run-pipeline.js';
import { registerRunScanners } from './run-scanners.js';

export interface LiveToolsOptions {
  /**
   * The collection engine. Without one, `map_inventory`, `collect_assets` and `run_pipeline` are not registered:
   * a tool that exists answers for real.
   */
  engine?: CloudgEngine;
  /** Register `run_scanners` (local programs plus reachability; no engine needed). Default true. */
  scanners?: boolean;
  /** The environment scanners run with and are looked up in (PATH). Default `process.env`. */
  scannerEnv?: NodeJS.ProcessEnv;
}

/**
 * Register the live tools in catalog order: map_inventory and collect_assets (with an engine),
 * run_scanners (unless disabled), run_pipeline (with an engine) and rate_limit_status (always:
 * it reads local state only).
 */
export function registerLiveTools(registry: Registry<Workspace>, options: LiveToolsOptions = {}): void {
  if (options.engine) {
    registerMapInventory(registry, options.engine);
    registerCollectAssets(registry, options.engine);
  }
  if (options.scanners ?? true)
    registerRunScanners(registry, options.scannerEnv ? { env: options.scannerEnv } : {});
  if (options.engine) registerRunPipeline(registry, options.engine);
  registerRateLimitStatus(registry);
}
