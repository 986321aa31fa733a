import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';

/** Register the meta tools: list_capabilities, describe_schema, explain_asset_type, explain_edge_type. */
export function registerMetaTools(registry: Registry<Workspace>): void {
  void registry;
}
