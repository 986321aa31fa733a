/** Running the policy's pipelines and merging their reports. */
import type { CallKind } from '../context.js';
import type { JsonValue } from '../json.js';
import type { PipelineRun, TransformPipeline, TransformReport } from '../policy-port.js';
import type { Principal } from '../principal.js';
import type { AnySpec } from '../specs/index.js';

export interface TransformTarget {
  pipeline: TransformPipeline | undefined;
  direction: 'input' | 'output';
  principal: Principal;
  kind: CallKind;
  spec: AnySpec;
}

export function isActive(pipeline: TransformPipeline | undefined): pipeline is TransformPipeline {
  return pipeline !== undefined && !pipeline.isEmpty;
}

/** Run a pipeline over one value; the value comes back unchanged with an empty report when there is none. */
export async function applyPipeline(target: TransformTarget, value: unknown): Promise<PipelineRun> {
  const { pipeline } = target;
  if (!isActive(pipeline)) return { value, report: {} };
  return pipeline.run(value, {
    direction: target.direction,
    principal: target.principal,
    kind: target.kind,
    spec: target.spec,
  });
}

/** Merge `source` into `target`: numbers add up (at any depth), other values keep the first seen. */
export function mergeReports(target: TransformReport, source: TransformReport): TransformReport {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (current === undefined) {
      target[key] = structuredClone(value);
    } else if (typeof current === 'number' && typeof value === 'number') {
      target[key] = current + value;
    } else if (isRecord(current) && isRecord(value)) {
      mergeReports(current, value);
    }
  }
  return target;
}

function isRecord(value: JsonValue | undefined): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
