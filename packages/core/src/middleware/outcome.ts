/** How the built-in middleware classify the end of a call, shared so audit and metrics agree. */
import type { ResourceContents } from '../content.js';
import {
  AccessDeniedError,
  CancelledError,
  errorTypeName,
  isMcpLayerError,
  RateLimitedError,
} from '../errors.js';
import { isPlainObject, type JsonValue } from '../json.js';
import { mergeReports } from '../layer/transform.js';
import { MetaKey } from '../meta.js';
import type { TransformReport } from '../policy-port.js';
import { PromptResult, ToolResult } from '../results.js';
import type { CallResult } from './types.js';

/**
 * The audit log's `outcome` values. `not_found` is for a request the layer answered before the
 * chain because it named nothing the caller may see.
 */
export type CallOutcome =
  | 'ok'
  | 'error'
  | 'denied'
  | 'rate_limited'
  | 'rejected'
  | 'cancelled'
  | 'exception'
  | 'not_found';

/** The outcome of a call that threw. Cancellation is checked before the generic layer error. */
export function outcomeOfError(error: unknown): CallOutcome {
  if (error instanceof AccessDeniedError) return 'denied';
  if (error instanceof RateLimitedError) return 'rate_limited';
  if (error instanceof CancelledError) return 'cancelled';
  if (isMcpLayerError(error)) return 'rejected';
  return 'exception';
}

/** Only tool results can be error results; the other kinds raise instead. */
export function isErrorResult(result: CallResult): result is ToolResult {
  return result instanceof ToolResult && result.isError;
}

/** The `_meta` record a result carries, for the kinds that have one. */
export function resultMeta(result: CallResult): Record<string, JsonValue> | undefined {
  if (result instanceof ToolResult || result instanceof PromptResult) return result.meta;
  return undefined;
}

/** The transform report of a result: the tool's `_meta` entry, or those of every resource content merged. */
export function transformReportOf(result: CallResult): TransformReport | undefined {
  const meta = resultMeta(result);
  if (meta) {
    const report = meta[MetaKey.transforms];
    return isPlainObject(report) ? (report as TransformReport) : undefined;
  }
  if (!Array.isArray(result)) return undefined;
  let merged: TransformReport | undefined;
  for (const contents of result as ResourceContents[]) {
    const report = contents._meta?.[MetaKey.transforms];
    if (isPlainObject(report)) merged = mergeReports(merged ?? {}, report as TransformReport);
  }
  return merged;
}

/** `type` and `code` of a thrown value, as the audit log records them. */
export function describeError(error: unknown): { type: string; code: number | string | null } {
  const type = errorTypeName(error);
  const code = isMcpLayerError(error) ? error.code : (error as { code?: unknown } | null)?.code;
  return { type, code: typeof code === 'number' || typeof code === 'string' ? code : null };
}

/** UTC ISO time with milliseconds, written with `+00:00` rather than `Z`. */
export function isoUtc(date: Date, withMilliseconds = true): string {
  const iso = date.toISOString();
  return withMilliseconds ? iso.replace('Z', '+00:00') : `${iso.slice(0, 19)}+00:00`;
}

/** Round to two decimals, the precision of every millisecond figure the middleware report. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
