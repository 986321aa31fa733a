// @cloudg/core: the request lifecycle and the error model of the cloudg MCP layer.
//
// The public API is what an application, a policy or a transport needs: the layer and its
// registry, the specs and what a handler receives and returns, content and its wire shapes, the
// error model, the policy port, the middleware contract and the built-in middleware. How the
// layer does its work (argument coercion and validation, finalisation, rendering) is internal.
// `api-report.md` lists every name; a test fails when this file and the report disagree.

export { InputSchemaError } from './arguments/json-schema.js';
// ---- specs: tools, resources, resource templates, prompts ----
export type { ArgsInput, ArgsObject, ArgsOf, ArgsShape } from './arguments/schema.js';
// ---- asking the client: elicitation, sampling, roots ----
export type { AskOptions } from './asking/ask.js';
export {
  ClientAnswerTimeoutError,
  type ClientPort,
  InputRequiredSignal,
  MissingClientCapabilityError,
} from './asking/port.js';
export type {
  ClientCapabilityName,
  ClientQuestion,
  ElicitAction,
  ElicitParams,
  ElicitProperty,
  ElicitResult,
  Root,
  SampleParams,
  SampleResult,
  SamplingMessage,
  SamplingTextContent,
} from './asking/types.js';
export { Cancellation, type CancellationView, type CancelSource, onCancel } from './cancellation.js';
export {
  CAPABILITIES,
  type Capability,
  SENSITIVITIES,
  type Sensitivity,
  sensitivityRank,
  type ToolAnnotations,
} from './capabilities.js';
export { type ConfigProblem, configProblems } from './config-problems.js';
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
// ---- what a handler gets and gives ----
export {
  type CallKind,
  type LogCallback,
  type LogLevel,
  MCP_LOG_LEVELS,
  normalizeLogLevel,
  type ProgressCallback,
  type QuestionOptions,
  ToolContext,
} from './context.js';
// ---- errors ----
export {
  AccessDeniedError,
  type ArgumentIssue,
  CancelledError,
  ErrorCode,
  type ErrorCodeValue,
  InvalidArgumentsError,
  isMcpLayerError,
  McpLayerError,
  type McpLayerErrorOptions,
  NotFoundError,
  RateLimitedError,
  StringErrorCode,
} from './errors.js';
export {
  canonicalJson,
  isPlainObject,
  type JsonObject,
  type JsonPrimitive,
  type JsonValue,
  toJsonable,
} from './json.js';
// ---- the layer and its registry ----
export {
  type CallOptions,
  type ChangeKind,
  type ChangeListener,
  type CompletionRef,
  Layer,
  type ServerIdentity,
  type UnchainedRequest,
} from './layer/layer.js';
export { LayerConfigError, type LayerOptions } from './layer/options.js';
// ---- logging ----
export { type CreateLoggerOptions, createLogger, type LogFormat, type Logger } from './logger.js';
export { MetaKey } from './meta.js';
export type { AppAgnosticMiddleware } from './middleware/app-agnostic.js';
export {
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
  type CachedResponse,
  InProcessResponseCache,
  type ResponseCacheStore,
} from './middleware/cache-store.js';
export {
  ConcurrencyLimitMiddleware,
  type ConcurrencyLimitOptions,
  SERVER_BUSY_MESSAGE,
} from './middleware/concurrency.js';
export {
  MetricsMiddleware,
  type MetricsResourceOptions,
  type MetricsSnapshot,
  type PrimitiveMetrics,
  registerMetricsResource,
  TimingMiddleware,
} from './middleware/metrics.js';
export type { CallOutcome } from './middleware/outcome.js';
export { isTransientError, RetryMiddleware, type RetryOn, type RetryOptions } from './middleware/retry.js';
// ---- middleware: the contract and the built-ins ----
export type {
  CallInfo,
  CallResult,
  CallResultByKind,
  Middleware,
  NextFn,
  RefusedCall,
} from './middleware/types.js';
export type {
  CatalogueDetector,
  DecisionLogQuery,
  DecisionLogView,
  DecisionRecord,
  KeyRuleDescription,
  PipelineStepDescription,
  PlannedDetector,
  PolicyDescriptionView,
  PolicyDetectors,
  PolicyIntrospection,
  PolicyStatus,
  PseudonymisationStatus,
  RevealResult,
  StrategyRow,
  TransformPreview,
} from './policy-introspection.js';
// ---- the policy port ----
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
export { closeMatches } from './similarity.js';
export {
  type AnySpec,
  type CompletionFn,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type PromptArgument,
  type PromptHandler,
  PromptSpec,
  type PromptSpecInit,
  type ResourceHandler,
  ResourceSpec,
  type ResourceSpecInit,
  ResourceTemplateSpec,
  type ResourceTemplateSpecInit,
  type SpecKind,
  type TemplateHandler,
  type ToolHandler,
  ToolSpec,
  type ToolSpecInit,
  type TransformHints,
} from './specs/index.js';
export { type RenderRule, structuredResource, structuredText } from './structured-text.js';
// ---- tasks: calls that answer with a handle and finish in the background ----
export { MemoryTaskStore, type MemoryTaskStoreOptions } from './tasks/memory-task-store.js';
export {
  isTerminalStatus,
  type TaskPatch,
  type TaskRecord,
  type TaskStart,
  type TaskStarter,
  type TaskStatus,
  type TaskSupport,
} from './tasks/task-record.js';
export type { TaskRelay, TaskSignal } from './tasks/task-relay.js';
export type { TaskStore } from './tasks/task-store.js';
export { UriTemplate } from './uri-template.js';
