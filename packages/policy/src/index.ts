// @cloudg/policy: access policies for the cloudg MCP layer. The public API is the `Policy`
// (core's policy port), how it is loaded (profiles, sources, merging), what it reports
// (decisions, the decision log, introspection, rate-limit data), the policy document's schema
// and types, and its errors. How decisions and pipelines are computed is internal.
// `api-report.md` lists every name; a test fails when this file and the report disagree.

export type { DecisionCounters, DecisionEntry, DecisionOutcome } from './audit/decision-log.js';
export type { Decision } from './decide/decide.js';
export type { PolicyDescription } from './describe.js';
// ---- errors ----
export {
  InvalidTransformError,
  PolicyError,
  type PolicyErrorCode,
  PolicyExtendsCycleError,
  type PolicyIssue,
  PolicyNotFoundError,
  PolicyParseError,
  PolicyValidationError,
} from './errors.js';
export { type IntrospectedVault, PolicyIntrospector } from './introspection/index.js';
export { mergePolicyDicts, type PolicyDict } from './load/merge.js';

// ---- loading ----
export { listProfiles } from './load/profiles.js';
export { DEFAULT_PROFILE, type PolicySourceValue } from './load/source.js';
// ---- the policy ----
export { Policy, type PolicyOptions, type PolicyVault } from './policy.js';
export {
  type BucketOutcome,
  type BucketRequest,
  InProcessBucketStore,
  type RateBucketStore,
} from './rate/bucket-store.js';
export type { Clock, RateLimitData } from './rate/limiter.js';
// ---- the policy document ----
export {
  type PolicyCallKind,
  type PolicyConfig,
  type PolicyDocument,
  PolicySchema,
  RATE_PERIODS,
  RATE_SCOPES,
  type RateLimitConfig,
  type RatePeriod,
  type RateScope,
  type RuleConfig,
  type RuleMatch,
  type TransformSpecInput,
  type VaultConfig,
} from './schema/config.js';
