/**
 * @cloudg/adapters/openai: a layer's tools as OpenAI function tools (`openai` 6, Chat Completions
 * and Responses), and the model's tool calls run through the layer. Only OpenAI's types are
 * imported, so the `openai` package is needed for type-checking, not at runtime.
 */
import type { Principal } from '@cloudg/core';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type {
  FunctionTool,
  ResponseFunctionToolCall,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { DispatchOptions } from '../export/layer-methods.js';
import { definitionsOf, type ToolSource } from '../export/source.js';
import { callToolForAgent, resultText, toolDefinitions } from '../export/tool-call-result.js';

/** Chat Completions `tools`. Not `strict`: cloudg's schemas have optional arguments, which strict mode forbids. */
export function toOpenAITools<TApp>(
  source: ToolSource<TApp>,
  principal?: Principal,
): ChatCompletionFunctionTool[] {
  return toolDefinitions(definitionsOf(source, principal)).map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: false },
  }));
}

/** Responses API `tools`. */
export function toOpenAIResponsesTools<TApp>(
  source: ToolSource<TApp>,
  principal?: Principal,
): FunctionTool[] {
  return toolDefinitions(definitionsOf(source, principal)).map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
}

/**
 * Run a Chat Completions tool call through the layer; the answer is the `tool` message to send
 * back. A failure is text the model reads (OpenAI has no error flag on tool messages).
 */
export async function runOpenAIToolCall<TApp>(
  source: ToolSource<TApp>,
  call: ChatCompletionMessageFunctionToolCall,
  options: DispatchOptions = {},
): Promise<ChatCompletionToolMessageParam> {
  const defs = definitionsOf(source, options.principal);
  const result = await callToolForAgent(defs, call.function.name, call.function.arguments, options);
  return { role: 'tool', tool_call_id: call.id, content: resultText(result) };
}

/** Run a Responses API `function_call` through the layer; the answer is its `function_call_output` item. */
export async function runOpenAIResponsesCall<TApp>(
  source: ToolSource<TApp>,
  call: ResponseFunctionToolCall,
  options: DispatchOptions = {},
): Promise<ResponseInputItem.FunctionCallOutput> {
  const defs = definitionsOf(source, options.principal);
  const result = await callToolForAgent(defs, call.name, call.arguments, options);
  return { type: 'function_call_output', call_id: call.call_id, output: resultText(result) };
}
