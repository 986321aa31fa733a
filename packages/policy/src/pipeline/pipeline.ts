/**
 * Turning assembled specs into the `TransformPipeline` core runs. An empty list gives the shared
 * empty pipeline, so `isEmpty` is true exactly when nothing would touch the value.
 */
import type { PipelineRun, TransformPipeline } from '@cloudg/core';
import { PolicyError } from '../errors.js';
import type { NormalizedSpec } from './specs.js';

export const EMPTY_PIPELINE: TransformPipeline = Object.freeze({
  isEmpty: true,
  run: (value: unknown): PipelineRun => ({ value, report: {} }),
});

/** Builds running pipelines from specs; supplied by the privacy wiring. */
export type PipelineBuilder = (
  specs: readonly NormalizedSpec[],
  direction: 'input' | 'output',
) => TransformPipeline;

/**
 * Stand-in used while no builder is wired: it admits that it would transform (`isEmpty` false,
 * so core withholds `outputSchema`) and refuses to run rather than pass data through untouched.
 */
export const unavailableBuilder: PipelineBuilder = (specs) => ({
  isEmpty: false,
  run(): never {
    throw new PolicyError('invalid_transform', 'Transform pipelines are not available in this build', {
      transforms: specs.map((s) => s.id),
    });
  },
});

export function buildPipeline(
  builder: PipelineBuilder,
  specs: readonly NormalizedSpec[],
  direction: 'input' | 'output',
): TransformPipeline {
  return specs.length === 0 ? EMPTY_PIPELINE : builder(specs, direction);
}
