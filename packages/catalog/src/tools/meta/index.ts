import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerDescribeSchema } from './describe-schema.js';
import { registerExplainAssetType } from './explain-asset-type.js';
import { registerExplainEdgeType } from './explain-edge-type.js';
import { registerListCapabilities } from './list-capabilities.js';

export { describeSchema, SCHEMA_SECTIONS, type SchemaSection } from './describe-schema.js';
export * from './vocabulary/index.js';

/** Register the meta tools: list_capabilities, describe_schema, explain_asset_type, explain_edge_type. */
export function registerMetaTools(registry: Registry<Workspace>): void {
  registerListCapabilities(registry);
  registerDescribeSchema(registry);
  registerExplainAssetType(registry);
  registerExplainEdgeType(registry);
}
