/**
 * @cloudg/privacy: detect, redact and reversibly pseudonymise secrets and identifiers in any
 * JSON value. Standalone: no other @cloudg package, no runtime dependency.
 */

// Detectors.
export { builtinDetectors } from './detectors/builtin.js';
export {
  type CustomDetectorConfig,
  compileCustomDetector,
  compileCustomDetectors,
} from './detectors/custom.js';
export { ENTITY_PARENTS, entityChain } from './detectors/entities.js';
export { classifyIpText, type IpClass } from './detectors/ip.js';
export { builtinKeyRules, DEFAULT_TAG_KEY_ALLOWLIST, type KeyRule } from './detectors/keyRules.js';
export { defaultDetectors, registerDetector, unregisterDetector } from './detectors/registry.js';
export { detectSpans } from './detectors/scan.js';
export type { Detector, Span, Validator } from './detectors/types.js';
export { isPlaceholder, looksHighEntropy, shannonEntropy } from './detectors/validators.js';
// Errors and shared types.
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
export { type NormalizedSpec, normalizeSpec, type TransformSpec } from './pipeline/spec.js';
// Transforms.
export { type AliasEntry, AliasMap } from './transforms/alias.js';
export { Annotator } from './transforms/annotate.js';
export { Depseudonymizer, stripFences } from './transforms/depseudonymize.js';
export { SecretArgumentGuard } from './transforms/guardSecrets.js';
export { Projection } from './transforms/project.js';
export type {
  DescribeFilter,
  DetectorListing,
  DetectorsDescription,
  KeyRuleListing,
} from './transforms/redact/describe.js';
export { DEFAULT_SKIP_KEYS, Redactor } from './transforms/redact/index.js';
export { RegexReplace } from './transforms/regexReplace.js';
export { KeyRename } from './transforms/renameKeys.js';
export {
  DEFAULT_FREE_TEXT_KEYS,
  FENCE_CLOSE,
  FENCE_OPEN,
  stripInvisible,
  UNTRUSTED_NOTICE,
  UntrustedTextGuard,
} from './transforms/sanitize.js';
export {
  parseStrategy,
  type Strategy,
  type StrategyKind,
  type StrategySpec,
} from './transforms/strategies.js';
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
export { normalizeKey } from './util/keys.js';

// The token vault.
export * from './vault/index.js';
