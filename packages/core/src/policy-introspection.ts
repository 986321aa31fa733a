/**
 * What a policy can say about itself through the port (`PolicyPort.introspection`): how it
 * applies to one caller, what it would do to a sample, which detectors it runs, what it
 * decided lately, and what a pseudonym stands for. A policy implements these methods; an
 * application shows the results to callers as they are. These types are the only definition
 * of those results: the implementation returns them and the application reads them, so the two
 * cannot drift apart. Field names are snake_case because the results are shown to clients;
 * they are object types rather than interfaces so that they fit JSON-shaped records.
 */
import type { Capability, Sensitivity } from './capabilities.js';
import type { JsonObject } from './json.js';
import type { TransformReport } from './policy-port.js';
import type { Principal } from './principal.js';
import type { AnySpec } from './specs/index.js';

/** One row of a redaction strategy table: what it applies to, the strategy and its options. */
export type StrategyRow = {
  applies_to: string;
  strategy: string;
  options: JsonObject;
};

/**
 * One step of an output pipeline, by type (and id when it differs), never with its options:
 * an alias table or a pattern would show the caller what the step hides. A redaction step adds
 * its plan, which names only entities, detectors and rules.
 */
export type PipelineStepDescription = {
  type: string;
  id?: string;
  default?: string;
  strategies?: StrategyRow[];
  active_detectors?: string[];
  key_rules?: string[];
  min_confidence?: number;
  pseudonymize_allowed?: boolean;
};

/** Whether and how the caller's results are pseudonymised, from the vault's statistics. */
export type PseudonymisationStatus = {
  active: boolean;
  /** `global` or `principal`; null when the policy has no vault. */
  vault_scope: string | null;
  vault_entries: number;
  by_entity: Record<string, number>;
  /** `config`, `env` or `random`; null for a vault that does not say. */
  key_source: string | null;
};

/** The policy as it applies to one caller. */
export type PolicyStatus = {
  policy: string;
  /** Null for a policy that has no description (a bare port). */
  description: string | null;
  /** Where the policy came from (`profile:<name>`, a file path, `json`, `dict`...); null when unknown. */
  loaded_from: string | null;
  /** Ancestors, root first. */
  extends: string[];
  principal: { id: string; roles: string[] };
  max_sensitivity: Sensitivity | null;
  denied_capabilities: Capability[];
  /** How many tools the caller is shown; the application counts them and passes the figure in. */
  visible_tools: number;
  output_pipeline: PipelineStepDescription[];
  pseudonymisation: PseudonymisationStatus;
  audit_enabled: boolean;
  /** Decision counters that are not zero (`allowed`, `denied`, `rate_limited`, `rejected`, `hidden`, `reveal`). */
  counters: Record<string, number>;
};

/** A sample run through the caller's (or one tool's) output pipeline, without the real vault. */
export type TransformPreview = {
  transformed: unknown;
  report: TransformReport;
};

/** A content detector as a redaction step plans it for the caller. */
export type PlannedDetector = {
  name: string;
  entity: string;
  category: string;
  confidence: number;
  strategy: string;
  refined?: Record<string, string>;
  active: boolean;
};

/** A content detector when no redaction step is in the way. */
export type CatalogueDetector = {
  name: string;
  entity: string;
  category: string;
  confidence: number;
  /** Null for a detector that has no description (a custom one). */
  description: string | null;
  enabled: boolean;
};

/** A key rule: values chosen by the key they sit under. */
export type KeyRuleDescription = {
  name: string;
  entity: string;
  category: string;
  key_pattern: string;
  /** The strategy the caller's redaction step gives it; absent without one. */
  strategy?: string;
};

/** The detectors and key rules of the caller's pipeline, optionally for one category. */
export type PolicyDetectors = {
  policy: string;
  detectors: PlannedDetector[] | CatalogueDetector[];
  key_rules: KeyRuleDescription[];
};

/** One access decision as a policy records it. Arguments are keyed hashes, never values. */
export type DecisionRecord = {
  /** Unix time in seconds. */
  ts: number;
  /** `allowed`, `denied`, `rate_limited`, `rejected` or `not_found`. */
  decision: string;
  /** `tool`, `resource`, `prompt` or `completion`. */
  kind: string;
  /** Tool or prompt name, static resource URI or URI template. */
  name: string;
  principal: string;
  roles: string[];
  /** Argument name to a keyed hash of its value. */
  arguments: Record<string, string>;
  reason?: string;
};

export type DecisionLogQuery = {
  /** The newest entries to return. */
  limit: number;
  /** Only entries with this decision. */
  decision?: string;
};

/** The recent decisions a caller may see. */
export type DecisionLogView = {
  policy: string;
  audit_enabled: boolean;
  /** `all` for an administrator, `own` for anyone else. */
  scope: 'all' | 'own';
  /** Entries in view after the `decision` filter, before `limit`. */
  total: number;
  /** The last `limit` of them, oldest first. */
  entries: DecisionRecord[];
};

/** What a pseudonym stands for: an exact hit, or a text with the pseudonyms in it reversed. */
export type RevealResult =
  | { pseudonym: string; found: true; value: string; entity_type: string | null }
  | { pseudonym: string; found: boolean; value: string | null; replaced: number };

/**
 * The policy's settings as plain data, for operators and agents that want to see the rules in
 * force: access lists, roles and rules by name, transforms, rate limits, vault statistics and
 * decision counters. Never the vault key, and transforms by type, id and option names only (an
 * alias table or a pattern would show what the step hides). Other keys are the policy's own.
 */
export type PolicyDescriptionView = {
  name: string;
  /** Null for a policy that has no description (a bare port). */
  description: string | null;
  /** Where the policy came from; null when unknown. */
  loaded_from: string | null;
  /** The built-in profiles a policy can be loaded from. */
  available_profiles: string[];
  [key: string]: unknown;
};

/**
 * What a policy can tell about itself. Optional on the port: a policy without it has nothing
 * to report, and an application should say so rather than fail.
 */
export interface PolicyIntrospection {
  /** The policy as it applies to a caller; `visibleTools` is the number of tools the caller is shown. */
  status(principal: Principal, facts: { visibleTools: number }): PolicyStatus;
  /** Run the caller's generic output pipeline, or a tool's, over sample data without touching the real vault. */
  preview(data: unknown, options: { principal: Principal; tool?: AnySpec }): Promise<TransformPreview>;
  /** Detectors and key rules with the strategy this caller's pipeline would apply, optionally for one category. */
  listDetectors(principal: Principal, category?: string): PolicyDetectors;
  /** Recent decisions: every principal's for administrators, the caller's own otherwise. */
  decisionLog(principal: Principal, query: DecisionLogQuery): DecisionLogView;
  /** The real value behind a pseudonym, or the text with every pseudonym it holds reversed. */
  reveal(token: string, principal: Principal): RevealResult;
  /** The policy's settings and vault statistics, without the key; optional for older implementations. */
  describe?(): PolicyDescriptionView;
}
