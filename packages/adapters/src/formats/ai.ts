/**
 * @cloudg/adapters/ai: a layer's tools as Vercel AI SDK tools (`ai` 6): `dynamicTool` objects
 * (the AI SDK's kind for tools defined at runtime, such as MCP tools) with cloudg's JSON Schema
 * and an `execute` that calls through the layer. A cloudg error result stays a result: the model
 * gets it as `error-text`, the AI SDK's form for a tool that failed, rather than an exception.
 */
import type { JsonObject, Principal } from '@cloudg/core';
import { dynamicTool, jsonSchema, type Tool } from 'ai';
import type { DispatchOptions } from '../export/layer-methods.js';
import { definitionsOf, type ToolSource } from '../export/source.js';
import { callToolForAgent, resultText, toolDefinitions } from '../export/tool-call-result.js';

export interface AiToolsOptions extends Omit<DispatchOptions, 'signal' | 'principal'> {
  principal?: Principal;
}

/** A `ToolSet` for `generateText` / `streamText`: exposed tool name → tool. Outputs are MCP `CallToolResult`s. */
export function toAiTools<TApp>(
  source: ToolSource<TApp>,
  options: AiToolsOptions = {},
): Record<string, Tool> {
  const { principal, ...dispatch } = options;
  const defs = definitionsOf(source, principal);
  const tools: Record<string, Tool> = {};
  for (const tool of toolDefinitions(defs)) {
    tools[tool.name] = dynamicTool({
      description: tool.description,
      inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: (input, { abortSignal }) =>
        callToolForAgent(defs, tool.name, input, {
          ...dispatch,
          principal: defs.principal,
          ...(abortSignal ? { signal: abortSignal } : {}),
        }),
      toModelOutput: ({ output }) => {
        const result = output as JsonObject;
        const value = resultText(result);
        return result.isError === true ? { type: 'error-text', value } : { type: 'text', value };
      },
    });
  }
  return tools;
}
