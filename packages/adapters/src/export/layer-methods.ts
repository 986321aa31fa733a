/**
 * The eight MCP request methods a mounted layer answers, each a decode → layer call → wire step.
 * Every adapter (the SDK binding, the framework-free export, the tool-format converters) goes
 * through this table, so they all end in the layer's four entry points and none of them runs a
 * handler or builds a schema itself. Lists are whole (one page): paging belongs to a wire, and a
 * host framework pages its own lists or not at all (MCP.md section 7: `--page-size` is native only).
 */
import {
  type CompletionRef,
  ErrorCode,
  type JsonObject,
  type Layer,
  type LogCallback,
  Principal,
  type ProgressCallback,
  resourceContentsToWire,
} from '@cloudg/core';
import { ProtocolError } from '@cloudg/transports';

export const MCP_METHODS = [
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
] as const;
export type McpMethod = (typeof MCP_METHODS)[number];

/** Who calls and how the call reports back; everything optional. */
export interface DispatchOptions {
  /** Default: the local user (`Principal.local()`), as for any in-process call. */
  principal?: Principal;
  signal?: AbortSignal;
  requestId?: string | number;
  onProgress?: ProgressCallback;
  onLog?: LogCallback;
}

export type MethodImpl = (
  layer: Layer<unknown>,
  params: Record<string, unknown>,
  options: DispatchOptions,
) => Promise<JsonObject>;

const invalidParams = (message: string) => new ProtocolError(ErrorCode.InvalidParams, message);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw invalidParams(`${key} must be a string`);
  return value;
}

function optionalObject(params: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw invalidParams(`${key} must be an object`);
  return value;
}

/** The layer's call options for one request. */
function callOptions(options: DispatchOptions) {
  return {
    principal: options.principal ?? Principal.local(),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onLog ? { onLog: options.onLog } : {}),
  };
}

const principalOf = (options: DispatchOptions) => options.principal ?? Principal.local();

/** The completion target and argument, checked as the native server checks them. */
export function decodeCompletion(params: Record<string, unknown>): {
  ref: CompletionRef;
  argument: { name: string; value: string };
  contextArguments: Record<string, string>;
} {
  const ref = params.ref;
  let target: CompletionRef;
  if (isObject(ref) && ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    target = { type: 'ref/prompt', name: ref.name };
  } else if (isObject(ref) && ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    target = { type: 'ref/resource', uri: ref.uri };
  } else {
    throw invalidParams('ref must be a ref/prompt with a name or a ref/resource with a uri');
  }
  const argument = params.argument;
  if (!isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams('argument must have a string name and value');
  }
  const context = optionalObject(params, 'context');
  const contextArguments: Record<string, string> = {};
  const given = context && isObject(context.arguments) ? context.arguments : {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value === 'string') contextArguments[key] = value;
  }
  return { ref: target, argument: { name: argument.name, value: argument.value }, contextArguments };
}

export const LAYER_METHODS: Record<McpMethod, MethodImpl> = {
  'tools/list': async (layer, _params, options) => ({ tools: layer.toolsWire(principalOf(options)) }),
  'resources/list': async (layer, _params, options) => ({
    resources: layer.resourcesWire(principalOf(options)),
  }),
  'resources/templates/list': async (layer, _params, options) => ({
    resourceTemplates: layer.resourceTemplatesWire(principalOf(options)),
  }),
  'prompts/list': async (layer, _params, options) => ({ prompts: layer.promptsWire(principalOf(options)) }),
  'tools/call': async (layer, params, options) => {
    const name = requireString(params, 'name');
    const result = await layer.callTool(name, optionalObject(params, 'arguments'), callOptions(options));
    return result.toWire();
  },
  'resources/read': async (layer, params, options) => {
    const contents = await layer.readResource(requireString(params, 'uri'), callOptions(options));
    return { contents: contents.map(resourceContentsToWire) };
  },
  'prompts/get': async (layer, params, options) => {
    const name = requireString(params, 'name');
    const result = await layer.getPrompt(name, optionalObject(params, 'arguments'), callOptions(options));
    return result.toWire();
  },
  'completion/complete': async (layer, params, options) => {
    const { ref, argument, contextArguments } = decodeCompletion(params);
    const completion = await layer.complete(ref, argument, { ...callOptions(options), contextArguments });
    return {
      completion: { values: completion.values, total: completion.total, hasMore: completion.hasMore },
    };
  },
};

export function isMcpMethod(method: string): method is McpMethod {
  return Object.hasOwn(LAYER_METHODS, method);
}
