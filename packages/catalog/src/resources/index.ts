import type { Registry } from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';
import { registerAssetResources } from './assets.js';
import { registerWorkspaceResources } from './workspace.js';

/**
 * Register the resources and templates of the workspace and inventory: `cloudg://workspace`,
 * `cloudg://datasets`, `cloudg://datasets/{dataset}/summary`, `cloudg://assets/{+ref}`,
 * `cloudg://assets/{+ref}/neighbors` and `cloudg://assets/{+ref}/findings`.
 */
export function registerResources(registry: Registry<Workspace>): void {
  registerWorkspaceResources(registry);
  registerAssetResources(registry);
}
