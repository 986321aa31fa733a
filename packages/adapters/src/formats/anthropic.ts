/**
 * @cloudg/adapters/anthropic: a layer's tools as Anthropic Messages API tools
 * (`@anthropic-ai/sdk` 1.x), and `tool_use` blocks run through the layer. Only the SDK's types are
 * imported, so the package is needed for type-checking, not at runtime.
 */

import type { Tool, ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { Principal } from '@cloudg/core';
import type { DispatchOptions } from '../export/layer-methods.js';
import { definitionsOf, type ToolSource } from '../export/source.js';
import { callToolForAgent, resultText, toolDefinitions } from '../export/tool-call-result.js';

export function toAnthropicTools<TApp>(source: ToolSource<TApp>, principal?: Principal): Tool[] {
  return toolDefinitions(definitionsOf(source, principal)).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.inputSchema, type: 'object' },
  }));
}

/**
 * Run a `tool_use` block through the layer; the answer is the `tool_result` block to send back,
 * with `is_error` set for a failure (Anthropic's convention: an error result, not an exception).
 */
export async function runAnthropicToolUse<TApp>(
  source: ToolSource<TApp>,
  block: Pick<ToolUseBlock, 'id' | 'name' | 'input'>,
  options: DispatchOptions = {},
): Promise<ToolResultBlockParam> {
  const defs = definitionsOf(source, options.principal);
  const result = await callToolForAgent(defs, block.name, block.input, options);
  return {
    type: 'tool_result',
    tool_use_id: block.id,
    content: resultText(result),
    is_error: result.isError === true,
  };
}
