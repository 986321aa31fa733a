export { AUDIT_ADMIN_ROLES, type DecisionLogEntry, type DecisionLogResult } from './decisions.js';
export type {
  CatalogueDetector,
  DetectorListingResult,
  KeyRuleItem,
  PlannedDetector,
} from './detectors.js';
export type { IntrospectedVault } from './host.js';
export { PolicyIntrospector } from './introspection.js';
export type { RevealResult } from './reveal.js';
export type { PrivacyStatus, PseudonymisationStatus } from './status.js';
export type { StepDescription, StrategyItem } from './steps.js';
