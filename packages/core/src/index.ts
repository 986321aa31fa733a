// @cloudg/core: the request lifecycle and the error model of the cloudg MCP layer.

export * from './arguments/index.js';
export {
  Cancellation,
  type CancellationView,
  type CancelSource,
  isCancellationView,
  onCancel,
} from './cancellation.js';
export {
  CAPABILITIES,
  type Capability,
  deriveAnnotations,
  isCapability,
  isSensitivity,
  SENSITIVITIES,
  type Sensitivity,
  sensitivityRank,
  type ToolAnnotations,
} from './capabilities.js';
export { type ConfigProblem, configProblems, formatConfigPath } from './config-problems.js';
export {
  type AudioContent,
  audioContent,
  type BlobResourceContents,
  type Content,
  type ContentAnnotations,
  contentToWire,
  type EmbeddedResource,
  embeddedResource,
  type Icon,
  type ImageContent,
  imageContent,
  isTextResourceContents,
  type ResourceContents,
  type ResourceLink,
  type ResourceLinkOptions,
  type Role,
  resourceContentsToWire,
  resourceLink,
  type TextContent,
  type TextResourceContents,
  textContent,
} from './content.js';
export {
  type CallKind,
  LOG_LEVELS,
  type LogCallback,
  type LogLevel,
  normalizeLogLevel,
  type ProgressCallback,
  ToolContext,
  type ToolContextInit,
} from './context.js';
export {
  AccessDeniedError,
  type ArgumentIssue,
  CancelledError,
  describeException,
  ErrorCode,
  type ErrorCodeValue,
  InvalidArgumentsError,
  isMcpLayerError,
  McpLayerError,
  type McpLayerErrorOptions,
  NotFoundError,
  RateLimitedError,
  StringErrorCode,
  ToolTimeoutError,
} from './errors.js';
export {
  canonicalJson,
  cloneJson,
  isPlainObject,
  type JsonObject,
  type JsonPrimitive,
  type JsonValue,
  toJsonable,
} from './json.js';
export { MAX_COMPLETION_VALUES } from './layer/complete.js';
export { renderJson, TRUNCATION_MARKER } from './layer/finalize.js';
export {
  type CallOptions,
  type ChangeKind,
  type ChangeListener,
  type CompletionRef,
  Layer,
  type ServerIdentity,
  type UnchainedRequest,
} from './layer/layer.js';
export {
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_TIMEOUT_SECONDS,
  LayerConfigError,
  type LayerOptions,
} from './layer/options.js';
export { mergeReports } from './layer/transform.js';
export { type CreateLoggerOptions, createLogger, type LogFormat, type Logger } from './logger.js';
export { MESSAGE_VALUE_MAX_CHARS, messageSafe } from './message-text.js';
export { META_PREFIX, MetaKey } from './meta.js';
// Built-in middleware (section 14).
export type { AppAgnosticMiddleware } from './middleware/app-agnostic.js';
export {
  AUDIT_HASH_LENGTH,
  AUDIT_LOGGER_NAME,
  AUDIT_SALT_ENV,
  type AuditHasher,
  AuditLogMiddleware,
  type AuditLogOptions,
  type AuditRecord,
  auditHash,
  createAuditHasher,
  UNMATCHED_URI,
} from './middleware/audit-log.js';
export { type CacheStats, CachingMiddleware, type CachingOptions } from './middleware/cache.js';
export {
  ConcurrencyLimitMiddleware,
  type ConcurrencyLimitOptions,
  SERVER_BUSY_MESSAGE,
} from './middleware/concurrency.js';
export {
  LATENCY_WINDOW,
  METRICS_URI,
  MetricsMiddleware,
  type MetricsResourceOptions,
  type MetricsSnapshot,
  type PrimitiveMetrics,
  registerMetricsResource,
  TimingMiddleware,
} from './middleware/metrics.js';
export type { CallOutcome } from './middleware/outcome.js';
export { isTransientError, RetryMiddleware, type RetryOn, type RetryOptions } from './middleware/retry.js';
export {
  type CallInfo,
  type CallResult,
  type CallResultByKind,
  composeChain,
  type Middleware,
  type NextFn,
  type RefusedCall,
} from './middleware/types.js';
export type {
  CatalogueDetector,
  DecisionLogQuery,
  DecisionLogView,
  DecisionRecord,
  KeyRuleDescription,
  PipelineStepDescription,
  PlannedDetector,
  PolicyDetectors,
  PolicyIntrospection,
  PolicyStatus,
  PseudonymisationStatus,
  RevealResult,
  StrategyRow,
  TransformPreview,
} from './policy-introspection.js';
export {
  allowAllPolicy,
  type CallCheck,
  type IdentifierSource,
  type PipelineContext,
  type PipelineRun,
  type PolicyPort,
  type TransformPipeline,
  type TransformReport,
} from './policy-port.js';
export { Principal } from './principal.js';
export { DuplicateSpecError, Registry } from './registry.js';
export {
  type CompletionResult,
  type PromptMessage,
  PromptResult,
  ToolResult,
  type ToolResultInit,
  userMessage,
} from './results.js';
export * from './specs/index.js';
export {
  DATA_META_KEY,
  RENDER_META_KEY,
  type RenderRule,
  readStructured,
  renderStructured,
  structuredResource,
  structuredText,
  withoutStructuredMeta,
} from './structured-text.js';
export { UriTemplate } from './uri-template.js';
