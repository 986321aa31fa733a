// @cloudg/catalog: the cloud domain of cloudg. The public API is what an application needs to
// serve the catalog (the layer, the registry and its parts, the workspace), to read and build
// inventories (the data model, the loaders, the config file) and to handle its errors. The
// conventions the tools share (paging, references, briefs, risk scores...) and the tools'
// vocabulary are internal: import them by relative path inside the package.
// `api-report.md` lists every name; a test fails when this file and the report disagree.

// ---- compliance rulesets (`rulesets.rules_dir` or the bundled ones) ----
export { RulesetError, type RulesetErrorData, type RulesetProblem } from './compliance/ruleset-errors.js';
// ---- the cloudg config file ----
export {
  CloudgConfigError,
  type CloudgConfigErrorCode,
  type CloudgConfigErrorData,
  type CloudgConfigProblem,
} from './config/errors.js';
export {
  defaultCloudgConfig,
  loadCloudgConfig,
  type ParseCloudgConfigOptions,
  parseCloudgConfig,
} from './config/load.js';
export { liveCooldownSeconds } from './config/ratelimit.js';
export { CloudgConfig, type CloudgConfigInput } from './config/schema.js';
export { SecretValue } from './config/secret.js';
export { Dataset, type DatasetInit, type InventoryResult } from './dataset/dataset.js';
export type { DatasetListing, DatasetSummary } from './dataset/summary.js';
// ---- the workspace of named datasets ----
export type { IngestRequest } from './findings/ingest.js';
// ---- triage decisions kept across restarts (a Workspace's `suppressions`) ----
export {
  type SuppressionDecision,
  SuppressionStore,
  SuppressionStoreError,
  type SuppressionStoreErrorCode,
} from './findings/suppression-store.js';
// ---- live collection: the engine port, the guard, the preflight, saved live datasets ----
export {
  type CloudgEngine,
  type CollectRequest,
  CredentialPreflightError,
  configureLive,
  credentialPreflight,
  defaultPreflightEnvironment,
  type EngineCollection,
  type EngineHooks,
  type EnginePhase,
  type EngineRunContext,
  type IdentityProbe,
  type LedgerAdmission,
  type LedgerClaim,
  type LedgerSnapshot,
  type LiveClock,
  type LiveGuardLedger,
  type LiveGuardSettings,
  type LiveGuardStatus,
  LiveOperationGuard,
  LiveOperationRefusedError,
  type LiveOperationRequest,
  type LiveProvider,
  type LiveRefusalData,
  type LiveState,
  liveState,
  type MapInventoryRequest,
  type PreflightEnvironment,
  type RefusalReason,
  type ReportRequest,
  type RestoreOutcome,
  restoreLiveDatasets,
  type ScanRequest,
  type ThrottleEvent,
  type ThrottleEventKind,
  type ThrottlingSnapshot,
} from './live/index.js';
// ---- loading files ----
export type { FileAccess } from './loaders/file-access.js';
export { LOAD_KINDS, type LoadKind, type LoadOptions, type LoadOutcome, loadPath } from './loaders/load.js';
export type { LoadedData } from './loaders/structured.js';
// ---- the data model ----
export { type CloudAsset, CloudAssetSchema } from './model/asset.js';
export {
  type CollectionCoverage,
  CollectionCoverageSchema,
  SERVICE_STATUSES,
  type ServiceCoverage,
  type ServiceStatus,
} from './model/coverage.js';
export { type NetworkEdge, NetworkEdgeSchema } from './model/edge.js';
export {
  COMPLIANCE_STATUSES,
  type ComplianceResult,
  ComplianceResultSchema,
  type Finding,
  FindingSchema,
  findingRiskScore,
} from './model/finding.js';
export {
  computeInventorySummary,
  type InventoryParts,
  type InventorySummary,
} from './model/inventory-summary.js';
export { type OrganizationTopology, OrganizationTopologySchema } from './model/organization.js';
export { SEVERITIES, type Severity } from './model/severity.js';
export type { UnresolvedReference } from './model/unresolved.js';
export {
  type CloudProvider,
  type DatasetKind,
  EDGE_TYPES,
  type EdgeType,
  PROVIDERS,
} from './model/vocabulary.js';
export { registerPrompts } from './prompts/index.js';
// ---- serving the catalog: the layer, the default registry and its parts ----
export {
  CATALOG_INSTRUCTIONS,
  type CatalogLayerOptions,
  createCatalogLayer,
  type DefaultRegistryOptions,
  defaultRegistry,
} from './registry.js';
export { registerResources } from './resources/index.js';
export { sampleEstateDir } from './sample-estate/paths.js';
export { registerComplianceTools } from './tools/compliance/index.js';
export { registerExportTools } from './tools/export/index.js';
export { registerFindingsTools } from './tools/findings/index.js';
export { registerGraphTools } from './tools/graph/index.js';
export { registerInventoryTools } from './tools/inventory/index.js';
export { type LiveToolsOptions, registerLiveTools } from './tools/live/index.js';
export { ASSET_TYPES, registerMetaTools } from './tools/meta/index.js';
export { registerOntologyTools } from './tools/ontology/index.js';
export { registerPrivacyTools } from './tools/privacy/index.js';
export { registerWorkspaceTools } from './tools/workspace/index.js';
export type { DatasetDiff, DiffSection } from './workspace/diff.js';
export {
  DatasetExistsError,
  NoDatasetError,
  ReferenceNotFoundError,
  WorkspaceConfigError,
} from './workspace/errors.js';
export type { WorkspaceOperation } from './workspace/operations.js';
export type {
  LoggedOperation,
  LogHead,
  LogSnapshot,
  WorkspaceLease,
  WorkspaceLog,
} from './workspace/shared-log.js';
export { SharedWorkspace, type SharedWorkspaceOptions } from './workspace/shared-workspace.js';
export {
  type ExclusiveRunner,
  type LoadDatasetOptions,
  type OperationRecorder,
  Workspace,
  type WorkspaceChangeKind,
  type WorkspaceChangeListener,
  type WorkspaceOptions,
  type WorkspaceStatus,
} from './workspace/workspace.js';
