// @cloudg/catalog: the cloud domain of cloudg. Data model, loaders, the workspace of named
// datasets, and the conventions every catalog tool shares.

// ---- workspace and inventory tools, resources, completions, the default registry ----
export { assetRefCandidates, completeAssetRef, completeDatasetName } from './completions/index.js';
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
export { resolveConfigPath } from './config/paths.js';
export { liveCooldownSeconds } from './config/ratelimit.js';
export {
  AwsConfig,
  AzureConfig,
  CloudgConfig,
  type CloudgConfigInput,
  CONFIG_PROVIDERS,
  type ConfigProvider,
  GcpConfig,
  ProviderRateLimitConfig,
  RateLimitConfig,
  ReportConfig,
  RulesetsConfig,
} from './config/schema.js';
export { SecretValue } from './config/secret.js';
// ---- conventions shared by the tools ----
export {
  type AssetBrief,
  assetBrief,
  assetUri,
  edgeBrief,
  type FindingBrief,
  findingBrief,
  findingUri,
  hopBrief,
  placeholderBrief,
} from './conventions/briefs.js';
export { resolveDataset } from './conventions/dataset-arg.js';
export {
  normaliseEnumValue,
  parseEnum,
  parseEnumList,
  parseSeverity,
  unknownEnumValue,
} from './conventions/enums.js';
export { resolveFindingRef } from './conventions/findings.js';
export {
  checkLimit,
  DEFAULT_LIMIT,
  decodeCursor,
  encodeCursor,
  MAX_LIMIT,
  type Page,
  type PageRequest,
  paginate,
  queryFingerprint,
} from './conventions/paging.js';
export { ASSET_FIELDS, checkFields, FINDING_FIELDS, project } from './conventions/projection.js';
export { type AssetCandidate, findAsset, resolveAssetRef, suggestAssets } from './conventions/references.js';
export {
  assetRiskKey,
  attackPathScore,
  CROWN_JEWEL_WEIGHTS,
  EXPLICIT_TARGET_WEIGHT,
  EXPOSURE_SORT_BONUS,
  type TopRiskComponents,
  topRiskScore,
} from './conventions/risk.js';
export { compareSeverityDesc, severitiesAtOrAbove, severityFilter } from './conventions/severity.js';
export { closeMatches, similarity } from './conventions/similarity.js';
export {
  ASSET_SORTS,
  type AssetSort,
  FINDING_SORTS,
  type FindingSort,
  sortAssets,
  sortFindings,
} from './conventions/sorting.js';
// ---- datasets ----
export { AssetMatcher, arnResourceParts, identifierTail, type MatchResult } from './dataset/asset-matcher.js';
export {
  CACHE_NAMES,
  Dataset,
  type DatasetInit,
  type InventoryResult,
  providersOf,
} from './dataset/dataset.js';
export { type AssetFindingStats, DatasetIndexes } from './dataset/indexes.js';
export {
  type DatasetListing,
  type DatasetSummary,
  datasetListing,
  datasetSummary,
  severityBreakdown,
} from './dataset/summary.js';
// ---- loaders ----
export { detectDirectoryKind, detectDocumentKind } from './loaders/detect.js';
export type { FileAccess } from './loaders/file-access.js';
export { type ControlRef, type ScannerFinding, scannerFindingId } from './loaders/finding-factory.js';
export { canonicalFramework } from './loaders/frameworks.js';
export {
  LOAD_KINDS,
  type LoadKind,
  type LoadOptions,
  type LoadOutcome,
  loadPath,
  nameFromPath,
  parseLoadKind,
} from './loaders/load.js';
export {
  dedupeAssets,
  dedupeFindings,
  mergeControlResults,
  normaliseFindingSet,
} from './loaders/normalise.js';
export { DEFAULT_MAX_FILE_BYTES, readJsonFile, readTextFile } from './loaders/read-file.js';
export type { LoadedData } from './loaders/structured.js';
// ---- data model ----
export { type CloudAsset, CloudAssetSchema } from './model/asset.js';
export {
  type CollectionCoverage,
  CollectionCoverageSchema,
  type CoverageSummary,
  SERVICE_STATUSES,
  type ServiceCoverage,
  ServiceCoverageSchema,
  type ServiceStatus,
  summariseCoverage,
} from './model/coverage.js';
export { type D3Graph, type D3Link, type D3Node, toD3Graph } from './model/d3-graph.js';
export { edgeDedupKey, isHierarchyEdge, type NetworkEdge, NetworkEdgeSchema } from './model/edge.js';
export {
  assetFileForm,
  edgeFileForm,
  type FindingsReportInput,
  findingFileForm,
  findingsReportFile,
  type InventoryMapInput,
  inventoryMapFile,
  organizationFile,
} from './model/files.js';
export {
  COMPLIANCE_STATUSES,
  type ComplianceResult,
  ComplianceResultSchema,
  type Finding,
  FindingSchema,
  findingRiskScore,
  SEVERITY_RISK,
} from './model/finding.js';
export {
  computeInventorySummary,
  type InventoryParts,
  type InventorySummary,
  serviceOf,
} from './model/inventory-summary.js';
export {
  type OrgAccount,
  type OrganizationSummary,
  type OrganizationTopology,
  OrganizationTopologySchema,
  type OrgPolicy,
  type OrgUnit,
  summariseOrganization,
} from './model/organization.js';
export {
  coerceSeverity,
  isSeverity,
  maxSeverity,
  SEVERITIES,
  type Severity,
  severityRank,
} from './model/severity.js';
export {
  MAX_UNRESOLVED_REFERENCES,
  type UnresolvedReference,
  UnresolvedReferenceSchema,
} from './model/unresolved.js';
export {
  type CloudProvider,
  type DatasetKind,
  EDGE_TYPES,
  type EdgeType,
  HIERARCHY_ASSET_TYPES,
  LOADER_KINDS,
  type LoaderKind,
  PROVIDERS,
} from './model/vocabulary.js';
export { completeFindingId, completeFramework, completeSeverity, registerPrompts } from './prompts/index.js';
export {
  CATALOG_INSTRUCTIONS,
  type CatalogLayerOptions,
  createCatalogLayer,
  defaultRegistry,
} from './registry.js';
export { registerResources } from './resources/index.js';
// ---- the sample estate ----
export { type SampleEstateFacts, SampleEstateFactsSchema } from './sample-estate/facts.js';
export { readSampleEstateFacts, sampleEstateFiles, writeSampleEstate } from './sample-estate/generate.js';
export { sampleEstateDir, sampleEstateFactsPath } from './sample-estate/paths.js';
export { type AssetFilterArgs, filterAssets } from './tools/inventory/asset-filter.js';
export { registerInventoryTools } from './tools/inventory/index.js';
// ---- meta and privacy tools, prompts ----
export {
  ASSET_TYPES,
  type AssetTypeInfo,
  assetTypeInfo,
  assetTypesByFamily,
  type DependencyDirection,
  dependencyDirection,
  describeSchema,
  EDGE_TYPE_ORDER,
  type EdgeTypeInfo,
  edgeTypeInfo,
  edgeTypeVerbs,
  RELATION_GROUPS,
  RELATION_TYPES,
  RELATION_TYPES_BY_GROUP,
  type RelationGroup,
  registerMetaTools,
  SCHEMA_SECTIONS,
  type SchemaSection,
} from './tools/meta/index.js';
export {
  PREVIEW_TRANSFORM_HINTS,
  REVEAL_TRANSFORM_HINTS,
  registerPrivacyTools,
} from './tools/privacy/index.js';
export { registerWorkspaceTools } from './tools/workspace/index.js';
// ---- workspace ----
export { type DatasetDiff, type DiffSection, diffDatasets } from './workspace/diff.js';
export {
  DatasetExistsError,
  NoDatasetError,
  ReferenceNotFoundError,
  WorkspaceConfigError,
} from './workspace/errors.js';
export { DATASET_NAME_PATTERN } from './workspace/names.js';
export { ALLOWED_ROOTS_ENV } from './workspace/roots.js';
export {
  DATASETS_URI,
  datasetSummaryUri,
  type LoadDatasetOptions,
  WORKSPACE_URI,
  Workspace,
  type WorkspaceChangeKind,
  type WorkspaceChangeListener,
  type WorkspaceOptions,
  type WorkspaceStatus,
} from './workspace/workspace.js';
