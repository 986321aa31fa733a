/**
 * README: cloudg's tools in agent loops (regions `openai`, `anthropic`, `ai`). Each function takes
 * the framework's client or model, so test/examples.test.ts runs them against stubbed ones.
 */

import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { toAiTools } from '@cloudg/adapters/ai';
import { runAnthropicToolUse, toAnthropicTools } from '@cloudg/adapters/anthropic';
import { runOpenAIToolCall, toOpenAITools } from '@cloudg/adapters/openai';
import { type Layer, Principal } from '@cloudg/core';
import { generateText, type LanguageModel, stepCountIs } from 'ai';
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

export async function openaiLoop<TApp>(client: OpenAI, layer: Layer<TApp>, model: string): Promise<string> {
  // #region openai
  const principal = new Principal({ id: 'ana', roles: ['analyst'] });
  const tools = toOpenAITools(layer, principal); // what this principal may see
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Which GCP assets are exposed?' }];
  for (;;) {
    const reply = await client.chat.completions.create({ model, messages, tools });
    const message = reply.choices[0]?.message;
    if (!message) break;
    messages.push(message);
    const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
    if (calls.length === 0) return message.content ?? '';
    // Every call goes through the layer: policy, transforms and audit apply.
    for (const call of calls) messages.push(await runOpenAIToolCall(layer, call, { principal }));
  }
  // #endregion openai
  return '';
}

export async function anthropicLoop<TApp>(
  client: Anthropic,
  layer: Layer<TApp>,
  model: string,
): Promise<string> {
  // #region anthropic
  const principal = new Principal({ id: 'ana', roles: ['analyst'] });
  const tools = toAnthropicTools(layer, principal);
  const messages: MessageParam[] = [{ role: 'user', content: 'Which GCP assets are exposed?' }];
  for (;;) {
    const reply = await client.messages.create({ model, max_tokens: 2048, tools, messages });
    messages.push({ role: 'assistant', content: reply.content });
    const uses = reply.content.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) {
      return reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    }
    const results = await Promise.all(uses.map((use) => runAnthropicToolUse(layer, use, { principal })));
    messages.push({ role: 'user', content: results });
  }
  // #endregion anthropic
}

export async function aiSdk<TApp>(model: LanguageModel, layer: Layer<TApp>): Promise<string> {
  // #region ai
  const tools = toAiTools(layer, { principal: new Principal({ id: 'ana', roles: ['analyst'] }) });
  const { text } = await generateText({
    model,
    tools,
    prompt: 'Which GCP assets are exposed?',
    stopWhen: stepCountIs(5),
  });
  // #endregion ai
  return text;
}
