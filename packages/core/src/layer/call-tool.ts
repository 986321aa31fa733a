/** `tools/call`: the lifecycle of section 4.1 from lookup to finalisation. */

import { assertNestingWithin } from '../arguments/nesting.js';
import { escapesToolResult } from '../asking/port.js';
import { onCancel } from '../cancellation.js';
import { NEVER_ABORTED, type ToolContext } from '../context.js';
import {
  cancellationError,
  describeException,
  isMcpLayerError,
  type McpLayerError,
  StringErrorCode,
  ToolTimeoutError,
} from '../errors.js';
import { isPlainObject } from '../json.js';
import { type CallInfo, composeChain } from '../middleware/types.js';
import type { Principal } from '../principal.js';
import type { ToolResult } from '../results.js';
import type { AnySpec, ToolSpec } from '../specs/index.js';
import { errorResult, finalizeToolResult } from './finalize.js';
import type { CallOptions, Layer } from './layer.js';
import { pipelineTarget, restoreInput, type TransformTarget } from './transform.js';

/** The question key of the policy's confirmation (stable across the reruns of a 2026 call). */
export const CONFIRM_KEY = 'cloudg-confirm';

function outputTarget<TApp>(
  layer: Layer<TApp>,
  spec: AnySpec<TApp>,
  principal: Principal,
  request: object,
): TransformTarget {
  return pipelineTarget(layer, spec as AnySpec, principal, 'tool', 'output', request);
}

export async function runCallTool<TApp>(
  layer: Layer<TApp>,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions<TApp>,
): Promise<ToolResult> {
  const principal = layer.callerOf(options);
  const request = { kind: 'tool' as const, name, arguments: args, principal, options };
  const spec = layer.admit(request, () => layer.getTool(name, principal));
  try {
    layer.admit({ ...request, spec }, () => assertNestingWithin(args));
  } catch (error) {
    // Like any other invalid arguments, an answer the caller reads as a tool error.
    if (!isMcpLayerError(error)) throw error;
    return errorResult(error.message, error.code, error.data, outputTarget(layer, spec, principal, request), {
      hints: error.hints,
      pretty: layer.prettyJson,
    });
  }
  const info = layer.startCall('tool', spec.name, spec, args, principal, options);
  const chain = composeChain(layer.middleware, (i) => toolTerminal(layer, i));
  try {
    return (await chain(info)) as ToolResult;
  } catch (error) {
    // Questions for the client and a missing client capability answer the request itself.
    if (escapesToolResult(error)) throw error;
    const target = outputTarget(layer, spec, principal, info.context);
    if (isMcpLayerError(error)) {
      return errorResult(error.message, error.code, error.data, target, {
        hints: error.hints,
        pretty: layer.prettyJson,
      });
    }
    return handlerFailure(layer, spec, error, target);
  }
}

/** An unexpected exception: logged with its stack, answered as a `handler_error` result. */
function handlerFailure<TApp>(
  layer: Layer<TApp>,
  spec: AnySpec<TApp>,
  error: unknown,
  target: TransformTarget,
): Promise<ToolResult> {
  layer.logger.error({ err: error, tool: spec.name }, `Tool ${spec.name} failed`);
  return errorResult(describeException(error), StringErrorCode.HandlerError, undefined, target);
}

/** Steps 6 to 13: policy check, input pipeline, validation, handler under its timeout, finalisation. */
async function toolTerminal<TApp>(layer: Layer<TApp>, info: CallInfo<TApp>): Promise<ToolResult> {
  const spec = info.spec as ToolSpec<TApp>;
  const { principal } = info;
  const ctx = info.context;
  await layer.policy.checkCall(spec as AnySpec, principal, {
    kind: 'tool',
    name: spec.name,
    arguments: info.arguments,
  });

  const input = pipelineTarget(layer, spec as AnySpec, principal, 'tool', 'input', ctx);
  let args = await restoreInput(layer.policy, input, info.arguments);
  if (!isPlainObject(args)) args = info.arguments;
  const validated = spec.validateArguments(args);

  const output = outputTarget(layer, spec, principal, ctx);
  const seconds = spec.timeoutSeconds ?? layer.defaultTimeout;
  const question = layer.policy.confirmation?.(spec as AnySpec, principal, {
    kind: 'tool',
    name: spec.name,
    arguments: validated,
  });
  // Asked before the handler, under a fixed key: in the 2026 era the rerun finds the answer.
  if (question !== undefined) {
    const confirmed = await runWithTimeout(ctx, seconds, spec.name, () =>
      ctx.confirm(question, { key: CONFIRM_KEY }),
    ).catch((error: unknown) => {
      if (error instanceof ToolTimeoutError) return false;
      throw error;
    });
    if (!confirmed) {
      return errorResult(
        `Tool ${spec.name} did not run: the person declined the confirmation`,
        StringErrorCode.Declined,
        undefined,
        output,
      );
    }
  }
  // Once checked and confirmed, a long call becomes a task here (when the caller can take one);
  // a tool that asks its own questions first starts its task itself.
  if (spec.taskSupport !== 'forbidden' && spec.taskStart === 'before-handler') await ctx.startTask();
  let raw: unknown;
  try {
    raw = await runWithTimeout(ctx, seconds, spec.name, () => spec.handler(ctx, validated));
  } catch (error) {
    if (error instanceof ToolTimeoutError) {
      return errorResult(error.message, StringErrorCode.Timeout, undefined, output);
    }
    if (isMcpLayerError(error) || escapesToolResult(error)) throw error;
    return handlerFailure(layer, spec, error, output);
  }
  return finalizeToolResult(raw, ctx.links, output, {
    maxOutputChars: layer.maxOutputChars,
    started: info.started,
    prettyJson: layer.prettyJson,
  });
}

/**
 * Run a handler with a deadline. The context's signal is aborted when the deadline passes or the
 * caller cancels, so a handler that honours it really stops; the call answers at once either way.
 */
export function runWithTimeout<TApp, T>(
  ctx: ToolContext<TApp>,
  seconds: number,
  toolName: string,
  run: () => T | Promise<T>,
): Promise<T> {
  const caller = ctx.cancellation;
  let reason: McpLayerError | undefined;
  let controller: AbortController | undefined;
  // The handler's signal is created on first use: most tools never look at it, and an
  // AbortController per call would be the most expensive step of a trivial call.
  ctx.bindSignal(() => {
    if (!controller) {
      controller = new AbortController();
      if (reason) controller.abort(reason);
    }
    return controller.signal;
  });
  // One promise settles the call: with the handler's outcome, or at once with the abort reason
  // when the deadline passes or the caller cancels, whether or not the handler honours its signal.
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let stopListening: (() => void) | undefined;
    let settled = false;
    const settle = () => {
      settled = true;
      if (timer) clearTimeout(timer);
      stopListening?.();
    };
    const abort = (why: McpLayerError) => {
      if (reason) return;
      reason = why;
      controller?.abort(why);
      if (settled) return;
      settle();
      reject(why);
    };
    if (caller !== NEVER_ABORTED)
      stopListening = onCancel(caller, () => abort(cancellationError(caller.reason)));
    // Cancelled before it started: the handler does not run at all.
    if (reason) return;
    // Node fires a timer above 2^31 - 1 ms at once: such a deadline is as good as none.
    if (seconds > 0 && seconds * 1000 <= MAX_TIMER_MS) {
      timer = setTimeout(() => abort(new ToolTimeoutError(`Tool ${toolName} timed out`)), seconds * 1000);
    }
    let outcome: T | Promise<T>;
    try {
      outcome = run();
    } catch (error) {
      if (!settled) {
        settle();
        reject(error);
      }
      return;
    }
    if (!isPromiseLike(outcome)) {
      if (!settled) {
        settle();
        resolve(outcome);
      }
      return;
    }
    outcome.then(
      (value) => {
        if (settled) return;
        settle();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settle();
        reject(error);
      },
    );
  });
}

/** The longest delay `setTimeout` honours (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

function isPromiseLike<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
