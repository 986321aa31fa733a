/** `completion/complete`: candidates for a prompt argument or a template variable. */
import { isPlainObject, toJsonable } from '../json.js';
import { type CallInfo, composeChain } from '../middleware/types.js';
import type { CompletionResult } from '../results.js';
import type { AnySpec, CompletionFn, PromptSpec, ResourceTemplateSpec } from '../specs/index.js';
import type { CallOptions, CompletionRef, Layer } from './layer.js';
import { applyPipeline, errorForCaller, pipelineTarget, type TransformTarget } from './transform.js';

export const MAX_COMPLETION_VALUES = 100;
/** No candidates; a new object each time, since callers may fill in the one they get. */
function empty(): CompletionResult {
  return { values: [], total: 0, hasMore: false };
}

export async function runCompletion<TApp>(
  layer: Layer<TApp>,
  ref: CompletionRef,
  argument: { name: string; value: string },
  options: CallOptions<TApp> & { contextArguments?: Record<string, string> },
): Promise<CompletionResult> {
  const principal = layer.callerOf(options);
  let spec: PromptSpec<TApp> | ResourceTemplateSpec<TApp> | undefined;
  let fn: CompletionFn<TApp> | undefined;
  let name: string;
  if (ref.type === 'ref/prompt') {
    name = ref.name;
    const prompt = layer.registry.prompts.get(layer.internalName(ref.name));
    spec = prompt;
    fn = prompt?.arguments.find((a) => a.name === argument.name)?.completion;
  } else {
    name = ref.uri;
    const template = layer.registry.templates.get(ref.uri);
    spec = template;
    fn = template?.completions[argument.name];
  }
  const contextArguments = options.contextArguments ?? {};
  const args = { argument: argument.name, value: argument.value, context: contextArguments };
  const visible = spec && layer.isVisible(spec, principal) ? spec : undefined;
  if (!visible || !fn) {
    // Nothing this caller may see, or nothing to complete: an empty answer, still accounted for.
    const request = { kind: 'completion' as const, name, arguments: args, principal, options };
    layer.refused({
      ...request,
      nameIsUri: ref.type === 'ref/resource',
      ...(visible ? { spec: visible } : {}),
    });
    return empty();
  }
  const info = layer.startCall('completion', name, visible, args, principal, options);
  info.context.meta.completion_fn = fn;
  const chain = composeChain(layer.middleware, (i) => completionTerminal(layer, i, argument.name, fn));
  try {
    return (await chain(info)) as CompletionResult;
  } catch (error) {
    throw await errorForCaller(
      error,
      pipelineTarget(layer, info.spec as AnySpec, principal, 'completion', 'output', info.context),
    );
  }
}

async function completionTerminal<TApp>(
  layer: Layer<TApp>,
  info: CallInfo<TApp>,
  argumentName: string,
  fn: CompletionFn<TApp>,
): Promise<CompletionResult> {
  const anySpec = info.spec as AnySpec;
  const { principal } = info;
  // Denials and rate limits propagate: they become protocol errors in the transports.
  await layer.policy.checkCall(anySpec, principal, {
    kind: 'completion',
    name: info.name,
    arguments: info.arguments,
  });
  const target = (direction: 'input' | 'output'): TransformTarget =>
    pipelineTarget(layer, anySpec, principal, 'completion', direction, info.context);
  const partialIn = String(info.arguments.value ?? '');
  const contextIn = (info.arguments.context ?? {}) as Record<string, unknown>;
  const restored = await applyPipeline(target('input'), { partial: partialIn, arguments: contextIn });
  const restoredValue = isPlainObject(restored.value) ? restored.value : {};
  const partial = typeof restoredValue.partial === 'string' ? restoredValue.partial : partialIn;
  info.context.meta.arguments = isPlainObject(restoredValue.arguments) ? restoredValue.arguments : contextIn;

  let values: string[];
  try {
    values = [];
    for (const value of await fn(info.context, partial)) values.push(String(value));
  } catch (error) {
    layer.logger.debug({ err: error, completion: info.name }, 'completion function failed');
    return empty();
  }
  const output = target('output');
  const transformed: string[] = [];
  for (const value of values.slice(0, MAX_COMPLETION_VALUES)) {
    // Wrapped under the argument name so key-based detectors recognise what the value is.
    const run = await applyPipeline(output, { [argumentName]: value });
    const out = isPlainObject(run.value) ? run.value[argumentName] : value;
    transformed.push(typeof out === 'string' ? out : String(toJsonable(out)));
  }
  return {
    values: transformed,
    total: values.length,
    hasMore: values.length > MAX_COMPLETION_VALUES,
  };
}
