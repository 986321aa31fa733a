/** The shared empty pipeline: `isEmpty` is true exactly when nothing would touch the value. */
import type { PipelineRun, TransformPipeline } from '@cloudg/core';

export const EMPTY_PIPELINE: TransformPipeline = Object.freeze({
  isEmpty: true,
  run: (value: unknown): PipelineRun => ({ value, report: {} }),
});
