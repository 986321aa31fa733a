/**
 * @cloudg/privacy: detect, redact and reversibly pseudonymise secrets and identifiers in any
 * JSON value. Standalone: no other @cloudg package, no runtime dependency.
 *
 * The public API: detectors and key rules, the transforms and the pipelines that run them, the
 * identifiers an application knows, the token vault, and the errors. Helpers the transforms
 * share (validators, fences, key normalisation, the vault's formats) are internal.
 * `api-report.md` lists every name; a test fails when this file and the report disagree.
 */

// Detectors.
export { builtinDetectors } from './detectors/builtin.js';
export {
  type CustomDetectorConfig,
  compileCustomDetector,
  compileCustomDetectors,
} from './detectors/custom.js';
export { classifyIpText, type IpClass } from './detectors/ip.js';
export { builtinKeyRules, type KeyRule } from './detectors/key-rules.js';
export { defaultDetectors, registerDetector, unregisterDetector } from './detectors/registry.js';
export { detectSpans } from './detectors/scan.js';
export type { Detector, Span, Validator } from './detectors/types.js';
// Errors.
export {
  DetectorConfigError,
  PrivacyError,
  type PrivacyErrorCode,
  SecretArgumentError,
  StrategyError,
  TransformOptionsError,
  TransformSpecError,
  UnknownTransformError,
} from './errors.js';
// Identifiers an application knows by value.
export {
  type FoundValue,
  IdentifierLexicon,
  type IdentifierMention,
  isDistinctiveIdentifier,
  isIdentifierCandidate,
  type KnownIdentifiers,
  MentionFinder,
} from './identifiers/lexicon.js';
// Pipelines and the transform registry.
export { buildPipeline, buildTransform, IDENTITY, Pipeline, type RunOptions } from './pipeline/pipeline.js';
export {
  canonicalName,
  registerTransform,
  resolveTransformType,
  type TransformBuildContext,
  type TransformFactory,
  transformTypes,
} from './pipeline/registry.js';
export type { NormalizedSpec, TransformSpec } from './pipeline/spec.js';
// Transforms.
export { type AliasEntry, AliasMap } from './transforms/alias.js';
export { Annotator } from './transforms/annotate.js';
export { Depseudonymizer } from './transforms/depseudonymize.js';
export { SecretArgumentGuard } from './transforms/guard-secrets.js';
export { Projection } from './transforms/project.js';
export type {
  DescribeFilter,
  DetectorListing,
  DetectorsDescription,
  KeyRuleListing,
} from './transforms/redact/describe.js';
export { Redactor } from './transforms/redact/index.js';
export { RegexReplace } from './transforms/regex-replace.js';
export { KeyRename } from './transforms/rename-keys.js';
export { UntrustedTextGuard } from './transforms/sanitize.js';
export type { Strategy, StrategyKind, StrategySpec } from './transforms/strategies.js';
export { Substitution } from './transforms/substitute.js';
export { TemplateField } from './transforms/template.js';
export type {
  ContentAnnotations,
  Direction,
  EntityCounts,
  JsonValue,
  PrimitiveKind,
  PrincipalInfo,
  ProjectionReport,
  PseudonymVault,
  Sensitivity,
  SuspiciousAction,
  Transform,
  TransformContext,
  TransformReport,
  UntrustedReport,
} from './types.js';

// The token vault.
export type { HeldShare } from './vault/claim-held.js';
export {
  VaultAuthenticationError,
  VaultConfigError,
  VaultError,
  type VaultErrorCode,
  type VaultErrorOptions,
  VaultFormatError,
  VaultIoError,
} from './vault/errors.js';
export { createVaultSealer, VaultSealer } from './vault/sealer.js';
export type {
  MappingKeys,
  SealedBatch,
  SharedAnswer,
  SharedClaim,
  SharedClock,
  SharedHolder,
  SharedUse,
  SharedVaultStore,
} from './vault/shared-store.js';
export { type PseudonymizeOptions, TokenVault } from './vault/token-vault.js';
export type {
  ImportOptions,
  NamespaceOption,
  TokenVaultOptions,
  VaultCounters,
  VaultEntry,
  VaultExport,
  VaultExportEntry,
  VaultKeySource,
  VaultScope,
  VaultStats,
} from './vault/types.js';
