// @cloudg/collectors: the live engine's real implementations. This entry point holds what every
// cloud shares (the engine composition, the relationship linker, the throttling governor) and
// loads no cloud SDK; each cloud's collector is on its own entry point (`@cloudg/collectors/aws`)
// so a server only loads the SDKs of the clouds it collects.

export { newCoverage } from './coverage.js';
export { type CollectorEngineOptions, createCollectorEngine } from './engine.js';
export { type FamilyTasks, SERVICE_FAMILY_TASKS } from './families.js';
export { classify, type ErrorClass, retryAfterSeconds } from './governor/classify.js';
export { CircuitOpenError, RetriesExhaustedError } from './governor/errors.js';
export {
  type CallScope,
  Governor,
  type GovernorEvent,
  type GovernorOptions,
} from './governor/governor.js';
export { accountHierarchyEdges } from './link/account-hierarchy.js';
export { type LinkResult, RelationshipLinker } from './link/relationship-linker.js';
export { type AssetInput, buildAsset } from './model/asset-builder.js';
export { type Relation, type RelationOptions, rel } from './model/relation.js';
export {
  type CloudgEngine,
  type CollectorEngine,
  type CollectRequest,
  type EngineCollection,
  type EngineHooks,
  type EnginePhase,
  type EngineRunContext,
  type LiveProvider,
  type MapInventoryRequest,
  SILENT_HOOKS,
  type ThrottleEvent,
} from './port.js';
export type { ProviderCollection, ProviderCollector, ProviderRun } from './provider.js';
