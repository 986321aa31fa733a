// @cloudg/policy: access policies for the cloudg MCP layer.

export type { DecisionCounters, DecisionEntry, DecisionOutcome } from './audit/decision-log.js';
export type { Decision } from './decide/decide.js';
export { GlobList } from './decide/glob.js';
export type { PolicyDescription } from './describe.js';
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
export { listProfiles, PROFILES_DIR } from './load/profiles.js';
export { DEFAULT_PROFILE, POLICY_ENV, type PolicySourceValue } from './load/source.js';
export { moveAliasesAfterRedact } from './pipeline/assemble.js';
export { EMPTY_PIPELINE } from './pipeline/pipeline.js';
export { PolicyPipeline } from './pipeline/privacy.js';
export { Policy, type PolicyOptions, type PolicyVault } from './policy.js';
export type { Clock, RateLimitData } from './rate/limiter.js';
export {
  type PolicyCallKind,
  type PolicyConfig,
  type PolicyDocument,
  PolicySchema,
  type PrimitiveKind,
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
