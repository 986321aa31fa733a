/** Running the policy's pipelines and merging their reports. */
import type { CallKind } from '../context.js';
import { isMcpLayerError } from '../errors.js';
import { type JsonValue, toJsonable } from '../json.js';
import type {
  IdentifierSource,
  PipelineContext,
  PipelineRun,
  PolicyPort,
  TransformPipeline,
  TransformReport,
} from '../policy-port.js';
import type { Principal } from '../principal.js';
import type { AnySpec } from '../specs/index.js';

export interface TransformTarget {
  pipeline: TransformPipeline | undefined;
  direction: 'input' | 'output';
  principal: Principal;
  kind: CallKind;
  spec: AnySpec;
  /** The request the value belongs to (its context): shared by its input and output runs. */
  request: object;
  identifiers: IdentifierSource | undefined;
}

/** What a target needs from the layer. */
export interface PipelineHost {
  readonly policy: PolicyPort;
  readonly identifiers: IdentifierSource | undefined;
}

/** Where a value of `request` is going and which of the policy's pipelines applies to it. */
export function pipelineTarget(
  host: PipelineHost,
  spec: AnySpec,
  principal: Principal,
  kind: CallKind,
  direction: 'input' | 'output',
  request: object,
): TransformTarget {
  const { policy } = host;
  const pipeline =
    direction === 'input' ? policy.inputPipeline(spec, principal) : policy.outputPipeline(spec, principal);
  return { pipeline, direction, principal, kind, spec, request, identifiers: host.identifiers };
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

/**
 * An error about to reach the caller, with its message and data passed through the output
 * pipeline as a result's would be (they can name assets: suggestions, the value asked for). The
 * error is changed in place: it belongs to this one request. Tool calls turn errors into results
 * (`errorResult`); resource reads, prompts and completions throw them, and use this.
 */
export async function errorForCaller(error: unknown, target: TransformTarget): Promise<unknown> {
  if (!isMcpLayerError(error) || !isActive(target.pipeline)) return error;
  const message = (await applyPipeline(target, error.message)).value;
  // A pipeline that made something else of the text (dropped it) leaves no text to show.
  error.message = typeof message === 'string' ? message : 'Request failed';
  if (error.data !== undefined && error.data !== null) {
    const data = (await applyPipeline(target, toJsonable(error.data))).value;
    Object.defineProperty(error, 'data', { value: data, enumerable: true, configurable: true });
  }
  return error;
}

/** Run a pipeline over one value; the value comes back unchanged with an empty report when there is none. */
export async function applyPipeline(target: TransformTarget, value: unknown): Promise<PipelineRun> {
  const { pipeline } = target;
  if (!isActive(pipeline)) return { value, report: {} };
  const context: PipelineContext = {
    direction: target.direction,
    principal: target.principal,
    kind: target.kind,
    spec: target.spec,
    request: target.request,
  };
  if (target.identifiers) context.identifiers = target.identifiers;
  return pipeline.run(value, context);
}

/**
 * Report sections that describe the result rather than count what was done to it: one result's
 * content annotations (MCP's `priority` lies in 0..1) and a projection's budget. Merging several
 * runs' reports keeps the largest number there instead of a sum.
 */
const DESCRIPTIVE_SECTIONS: ReadonlySet<string> = new Set(['content_annotations', 'budget']);

/**
 * Merge `source` into `target`: counts add up (at any depth), numbers inside descriptive
 * sections keep the largest, other values keep the first seen.
 */
export function mergeReports(target: TransformReport, source: TransformReport): TransformReport {
  return mergeInto(target, source, true);
}

function mergeInto(target: TransformReport, source: TransformReport, additive: boolean): TransformReport {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (current === undefined) {
      target[key] = structuredClone(value);
    } else if (typeof current === 'number' && typeof value === 'number') {
      target[key] = additive ? current + value : Math.max(current, value);
    } else if (isRecord(current) && isRecord(value)) {
      mergeInto(current, value, additive && !DESCRIPTIVE_SECTIONS.has(key));
    }
  }
  return target;
}

function isRecord(value: JsonValue | undefined): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
