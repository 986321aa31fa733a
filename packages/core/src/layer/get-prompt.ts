/** `prompts/get`: required arguments, middleware, policy, input pipeline, handler, output pipeline over messages. */

import { assertNestingWithin } from '../arguments/nesting.js';
import type { Content } from '../content.js';
import { InvalidArgumentsError, isMcpLayerError, McpLayerError } from '../errors.js';
import { isPlainObject, type JsonValue, toJsonable } from '../json.js';
import { type CallInfo, composeChain } from '../middleware/types.js';
import { type PromptMessage, PromptResult, userMessage } from '../results.js';
import type { AnySpec, PromptSpec } from '../specs/index.js';
import { protocolErrorForCaller, transformContent } from './finalize.js';
import type { CallOptions, Layer } from './layer.js';
import { applyPipeline, isActive, pipelineTarget, restoreInput, type TransformTarget } from './transform.js';

export async function runGetPrompt<TApp>(
  layer: Layer<TApp>,
  name: string,
  args: Record<string, unknown>,
  options: CallOptions<TApp>,
): Promise<PromptResult> {
  const principal = layer.callerOf(options);
  const request = { kind: 'prompt' as const, name, arguments: args, principal, options };
  const spec = layer.admit(request, () => layer.getPromptSpec(name, principal));
  layer.admit({ ...request, spec }, () => {
    assertNestingWithin(args);
    checkRequired(spec, args);
  });
  const info = layer.startCall('prompt', spec.name, spec, args, principal, options);
  const chain = composeChain(layer.middleware, (i) => promptTerminal(layer, i));
  try {
    return (await chain(info)) as PromptResult;
  } catch (error) {
    throw await protocolErrorForCaller(
      error,
      pipelineTarget(layer, spec as AnySpec, principal, 'prompt', 'output', info.context),
      layer.prettyJson,
    );
  }
}

/** Required arguments are checked before the chain, as the reference does. */
function checkRequired<TApp>(spec: PromptSpec<TApp>, args: Record<string, unknown>): void {
  const missing = spec.arguments
    .filter(
      (arg) =>
        arg.required && (args[arg.name] === undefined || args[arg.name] === null || args[arg.name] === ''),
    )
    .map((arg) => arg.name);
  if (missing.length > 0) {
    throw new InvalidArgumentsError(`Missing required prompt arguments: ${missing.join(', ')}`, {
      data: { missing },
    });
  }
}

async function promptTerminal<TApp>(layer: Layer<TApp>, info: CallInfo<TApp>): Promise<PromptResult> {
  const spec = info.spec as PromptSpec<TApp>;
  const anySpec = spec as AnySpec;
  const { principal } = info;
  await layer.policy.checkCall(anySpec, principal, {
    kind: 'prompt',
    name: spec.name,
    arguments: info.arguments,
  });
  const target = (direction: 'input' | 'output'): TransformTarget =>
    pipelineTarget(layer, anySpec, principal, 'prompt', direction, info.context);
  const restored = await restoreInput(layer.policy, target('input'), info.arguments);
  const source = isPlainObject(restored) ? restored : info.arguments;
  // Only declared arguments reach the handler; MCP prompt arguments are strings.
  const args: Record<string, string> = {};
  for (const arg of spec.arguments) {
    const value = source[arg.name];
    if (value !== undefined && value !== null)
      args[arg.name] = typeof value === 'string' ? value : String(value);
  }
  let raw: Awaited<ReturnType<typeof spec.handler>>;
  try {
    raw = await spec.handler(info.context, args);
  } catch (error) {
    if (isMcpLayerError(error)) throw error;
    layer.logger.error({ err: error, prompt: spec.name }, `Prompt ${spec.name} failed`);
    throw new McpLayerError('Internal error', { cause: error });
  }
  const result =
    raw instanceof PromptResult
      ? raw
      : typeof raw === 'string'
        ? new PromptResult([userMessage(raw)])
        : new PromptResult(raw);
  const output = target('output');
  const report = {};
  const messages: PromptMessage[] = [];
  for (const message of result.messages) {
    const [content] = (await transformContent(output, [message.content], report, layer.prettyJson)) as [
      Content,
    ];
    messages.push({ role: message.role, content });
  }
  result.messages = messages;
  // The description and _meta reach the client too (a handler may name the asset in them).
  if (isActive(output.pipeline)) {
    if (result.description !== undefined) {
      const run = await applyPipeline(output, result.description);
      result.description = typeof run.value === 'string' ? run.value : undefined;
    }
    if (Object.keys(result.meta).length > 0) {
      const run = await applyPipeline(output, result.meta);
      result.meta = isPlainObject(run.value) ? (toJsonable(run.value) as Record<string, JsonValue>) : {};
    }
  }
  return result;
}
