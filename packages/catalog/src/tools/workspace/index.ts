import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerDiffTool } from './diff.js';
import { registerLifecycleTools } from './lifecycle.js';
import { registerLoadTool } from './load.js';
import { registerStatusTools } from './status.js';
import { registerSummaryTool } from './summary.js';

/**
 * Register the eight workspace tools: workspace_status, list_datasets, load_dataset,
 * select_dataset, unload_dataset, snapshot_dataset, diff_datasets, dataset_summary.
 */
export function registerWorkspaceTools(registry: Registry<Workspace>): void {
  registerStatusTools(registry);
  registerLoadTool(registry);
  registerLifecycleTools(registry);
  registerDiffTool(registry);
  registerSummaryTool(registry);
}
