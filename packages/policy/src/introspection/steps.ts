/**
 * `output_pipeline` of `privacy_status`: one description per step of the caller's generic
 * pipeline. Steps show their type (and id when it differs), never their options: an alias table
 * or a regex would show the caller the very values the step hides. The redactor also lists its
 * strategy table, active detectors and key rules, which only name entities.
 */
import type { JsonValue, PipelineStepDescription, StrategyRow } from '@cloudg/core';
import { Redactor, type Transform } from '@cloudg/privacy';
import type { NormalizedSpec } from '../pipeline/specs.js';
import type { BuiltPipeline } from './host.js';

function describeRedactor(
  spec: NormalizedSpec,
  redactor: Redactor,
): Omit<PipelineStepDescription, 'type' | 'id'> {
  const { plan } = redactor;
  // A list rather than a mapping: entity names such as `secret` as keys would look like
  // sensitive fields to the caller's own redactor.
  const strategies: StrategyRow[] = [];
  for (const [appliesTo, strategy] of plan.table) {
    // The fallback is the `default` field.
    if (appliesTo === 'default') continue;
    strategies.push({
      applies_to: appliesTo,
      strategy: strategy.kind,
      options: structuredClone(strategy.options) as { [key: string]: JsonValue },
    });
  }
  const listing = redactor.describe({ activeOnly: true });
  const minConfidence = spec.options.min_confidence;
  return {
    default: plan.fallback.kind,
    strategies,
    active_detectors: listing.detectors.map((d) => d.name),
    key_rules: listing.key_rules.map((r) => r.name),
    min_confidence: typeof minConfidence === 'number' ? minConfidence : 0,
    pseudonymize_allowed: spec.options.allow_pseudonymize !== false,
  };
}

function describeStep(spec: NormalizedSpec, transform: Transform | undefined): PipelineStepDescription {
  const step: PipelineStepDescription = { type: spec.type };
  if (spec.id !== spec.type) step.id = spec.id;
  if (transform instanceof Redactor) Object.assign(step, describeRedactor(spec, transform));
  return step;
}

export function describeSteps(built: BuiltPipeline): PipelineStepDescription[] {
  return built.specs.map((spec, i) => describeStep(spec, built.pipeline.transforms[i]));
}

/** True when a redact step of the pipeline pseudonymises something. */
export function pseudonymises(built: BuiltPipeline): boolean {
  return built.pipeline.transforms.some((t) => t instanceof Redactor && t.plan.pseudonymizes);
}
