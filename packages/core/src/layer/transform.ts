/** Running the policy's pipelines and merging their reports. */
import type { CallKind } from '../context.js';
import { isMcpLayerError } from '../errors.js';
import type { JsonValue } from '../json.js';
import type { PipelineRun, PolicyPort, TransformPipeline, TransformReport } from '../policy-port.js';
import type { Principal } from '../principal.js';
import type { AnySpec } from '../specs/index.js';

export interface TransformTarget {
  pipeline: TransformPipeline | undefined;
  direction: 'input' | 'output';
  principal: Principal;
  kind: CallKind;
  spec: AnySpec;
}

/** Where a value is going and which of the policy's pipelines applies to it. */
export function pipelineTarget(
  policy: PolicyPort,
  spec: AnySpec,
  principal: Principal,
  kind: CallKind,
  direction: 'input' | 'output',
): TransformTarget {
  const pipeline =
    direction === 'input' ? policy.inputPipeline(spec, principal) : policy.outputPipeline(spec, principal);
  return { pipeline, direction, principal, kind, spec };
}

/**
 * Run the input pipeline over a call's arguments. A refusal (a secret in an argument) is reported
 * to the policy, so the decision `checkCall` recorded as allowed becomes a rejection.
 */
export async function restoreInput(
  policy: PolicyPort,
  target: TransformTarget,
  value: unknown,
): Promise<unknown> {
  try {
    return (await applyPipeline(target, value)).value;
  } catch (error) {
    if (isMcpLayerError(error)) policy.recordRejection?.(target.spec, target.principal, error);
    throw error;
  }
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
