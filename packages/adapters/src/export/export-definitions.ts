/**
 * The framework-free export (MCP.md section 9): the wire definitions one principal sees, and
 * handlers that still run every request through the layer. For gateways, agent loops and servers
 * that use no MCP SDK; the tool-format converters (`@cloudg/adapters/openai`, `/anthropic`, `/ai`)
 * are built on it.
 */
import { ErrorCode, type JsonObject, type Layer, Principal } from '@cloudg/core';
import { ProtocolError } from '@cloudg/transports';
import {
  type DispatchOptions,
  isMcpMethod,
  LAYER_METHODS,
  MCP_METHODS,
  type McpMethod,
} from './layer-methods.js';

/** One method's handler: params as on the wire, the result as on the wire. */
export type MethodHandler = (
  params?: Record<string, unknown>,
  options?: DispatchOptions,
) => Promise<JsonObject>;

/** A tool as a plain function of its arguments, bound to the export's principal. */
export type ToolFunction = (
  args?: Record<string, unknown>,
  options?: Omit<DispatchOptions, 'principal'>,
) => Promise<JsonObject>;

export interface ServerDescription {
  name: string;
  version: string;
  instructions: string;
}

export interface ExportedDefinitions {
  server: ServerDescription;
  /** The principal the lists below (and `toolFunctions`) are for. */
  principal: Principal;
  /** Snapshots of the MCP wire lists as `principal` sees them when the export was made. */
  tools: JsonObject[];
  resources: JsonObject[];
  resourceTemplates: JsonObject[];
  prompts: JsonObject[];
  /** Every method; `options.principal` defaults to the export's principal, so one export can serve many callers. */
  handlers: Record<McpMethod, MethodHandler>;
  /** Exposed tool name → function; a tool error is a result with `isError`, never a throw. */
  toolFunctions: Record<string, ToolFunction>;
  /**
   * Run one method. An unknown method throws `ProtocolError` -32601; protocol failures (an unknown
   * tool or resource, bad prompt arguments) throw the layer's errors, as on the wire.
   */
  dispatch(method: string, params?: Record<string, unknown>, options?: DispatchOptions): Promise<JsonObject>;
  /** The definitions without the functions, for serialising. */
  toJSON(): JsonObject;
}

/** Export what `principal` (default: the local user) sees of `layer`. */
export function exportDefinitions<TApp>(
  layer: Layer<TApp>,
  principal: Principal = Principal.local(),
): ExportedDefinitions {
  const base = layer as Layer<unknown>;
  const withPrincipal = (options: DispatchOptions = {}): DispatchOptions =>
    options.principal ? options : { ...options, principal };
  const handlers = {} as Record<McpMethod, MethodHandler>;
  for (const method of MCP_METHODS) {
    handlers[method] = (params = {}, options) => LAYER_METHODS[method](base, params, withPrincipal(options));
  }
  const tools = base.toolsWire(principal);
  const toolFunctions: Record<string, ToolFunction> = {};
  for (const tool of tools) {
    const name = String(tool.name);
    toolFunctions[name] = (args = {}, options = {}) =>
      handlers['tools/call']({ name, arguments: args }, { ...options, principal });
  }
  const server: ServerDescription = { ...base.identity };
  const lists = {
    tools,
    resources: base.resourcesWire(principal),
    resourceTemplates: base.resourceTemplatesWire(principal),
    prompts: base.promptsWire(principal),
  };
  return {
    server,
    principal,
    ...lists,
    handlers,
    toolFunctions,
    async dispatch(method, params, options) {
      if (!isMcpMethod(method)) {
        throw new ProtocolError(ErrorCode.MethodNotFound, 'Method not found', { data: { method } });
      }
      return handlers[method](params, options);
    },
    toJSON: () => ({ server: { ...server }, ...lists }),
  };
}
