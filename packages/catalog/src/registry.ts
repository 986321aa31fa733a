import { Layer, type LayerOptions, type PolicyPort, Registry } from '@cloudg/core';
import { registerPrompts } from './prompts/index.js';
import { registerResources } from './resources/index.js';
import { registerComplianceTools } from './tools/compliance/index.js';
import { registerExportTools } from './tools/export/index.js';
import { registerFindingsTools } from './tools/findings/index.js';
import { registerGraphTools } from './tools/graph/index.js';
import { registerInventoryTools } from './tools/inventory/index.js';
import { type LiveToolsOptions, registerLiveTools } from './tools/live/index.js';
import { registerMetaTools } from './tools/meta/index.js';
import { registerOntologyTools } from './tools/ontology/index.js';
import { registerPrivacyTools } from './tools/privacy/index.js';
import { registerWorkspaceTools } from './tools/workspace/index.js';
import { Workspace } from './workspace/workspace.js';

export interface DefaultRegistryOptions {
  /** The live tools: an engine enables map_inventory, collect_assets and run_pipeline (see `registerLiveTools`). */
  live?: LiveToolsOptions;
}

/**
 * The catalog's default registry: every tool, resource, template, completion and prompt the
 * catalog ships, in catalog order (workspace, inventory, graph, findings, compliance, ontology, export, live, resources, meta,
 * privacy, prompts).
 */
export function defaultRegistry(options: DefaultRegistryOptions = {}): Registry<Workspace> {
  const registry = new Registry<Workspace>();
  registerWorkspaceTools(registry);
  registerInventoryTools(registry);
  registerGraphTools(registry);
  registerFindingsTools(registry);
  registerComplianceTools(registry);
  registerOntologyTools(registry);
  registerExportTools(registry);
  registerLiveTools(registry, options.live ?? {});
  registerResources(registry);
  registerMetaTools(registry);
  registerPrivacyTools(registry);
  registerPrompts(registry);
  return registry;
}

export interface CatalogLayerOptions extends Omit<LayerOptions<Workspace>, 'app' | 'policy' | 'registry'> {
  /** Default: core's allow-all policy. */
  policy?: PolicyPort;
  /** Default: a new workspace with default options. */
  workspace?: Workspace;
  /** Default: `defaultRegistry()`. */
  registry?: Registry<Workspace>;
}

/** What the server tells a model about the catalog when it connects (MCP `instructions`). */
export const CATALOG_INSTRUCTIONS =
  'cloudg exposes a cloud security inventory: assets, their relationships, findings and compliance posture. ' +
  'Start with workspace_status to see what is loaded. Identifiers may be pseudonyms; pass them back unchanged.';

/**
 * A ready catalog layer: the workspace travels as `ctx.app`, and every workspace change
 * (dataset loaded, selected, mutated, unloaded) is forwarded to the layer's change listeners,
 * which transports turn into `resources/list_changed` and `resources/updated` notifications.
 */
export function createCatalogLayer(options: CatalogLayerOptions = {}): Layer<Workspace> {
  const { workspace = new Workspace(), registry = defaultRegistry(), policy, ...rest } = options;
  const layerOptions: LayerOptions<Workspace> = {
    instructions: CATALOG_INSTRUCTIONS,
    ...rest,
    app: workspace,
    // The workspace knows every identifier it serves, so a pseudonymising policy can find them by value.
    identifiers: workspace,
    registry,
  };
  if (policy !== undefined) layerOptions.policy = policy;
  const layer = new Layer<Workspace>(layerOptions);
  workspace.onChange((kind, uri) => layer.notifyChange(kind, uri));
  return layer;
}
