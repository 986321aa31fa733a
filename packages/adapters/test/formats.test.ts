/**
 * The framework-free export and the tool formats of the OpenAI, Anthropic and Vercel AI SDKs, fed
 * to the real SDKs: their clients and `generateText` run against a stubbed `fetch` or a mock model
 * (no network), the model asks for `find_assets`, and the call goes through the layer.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { McpLayerError, Principal } from '@cloudg/core';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { toAiTools } from '../src/formats/ai.js';
import { runAnthropicToolUse, toAnthropicTools } from '../src/formats/anthropic.js';
import { runOpenAIToolCall, toOpenAIResponsesTools, toOpenAITools } from '../src/formats/openai.js';
import { exportDefinitions, MCP_METHODS } from '../src/index.js';
import { sampleLayer } from './support/sample-layer.js';

const GCP = { provider: 'GCP' };

/** A `fetch` that answers every request with `body` and records what was sent. */
function stubFetch(body: unknown, sent: unknown[]): typeof fetch {
  return async (_input, init) => {
    sent.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

describe('exportDefinitions', () => {
  it('lists, handlers and tool functions as the principal sees them, through the layer', async () => {
    const layer = await sampleLayer({ policy: 'soc-analyst' });
    const analyst = exportDefinitions(layer, new Principal({ id: 'ana', roles: ['analyst'] }));
    const lead = exportDefinitions(layer, new Principal({ id: 'lee', roles: ['lead'] }));
    expect(Object.keys(analyst.handlers).sort()).toEqual([...MCP_METHODS].sort());
    expect(analyst.server).toEqual(layer.identity);
    expect(Object.keys(analyst.toolFunctions)).toEqual(analyst.tools.map((t) => t.name));
    expect(Object.keys(lead.toolFunctions)).toContain('reveal_token');
    expect(Object.keys(analyst.toolFunctions)).not.toContain('reveal_token');

    const found = await lead.dispatch('tools/call', { name: 'find_assets', arguments: GCP });
    expect(found.isError).toBe(false);
    expect((found.structuredContent as { total: number }).total).toBe(3);
    // The analyst's pseudonyms: the bucket's real name never shows.
    const pseudonymised = await analyst.toolFunctions.find_assets?.(GCP);
    expect(JSON.stringify(pseudonymised)).not.toContain('raw-uploads');
    expect(JSON.stringify(found)).toContain('raw-uploads');

    // A hidden tool is unknown, as on the wire; an unknown method is -32601.
    await expect(analyst.dispatch('tools/call', { name: 'reveal_token', arguments: {} })).rejects.toThrow(
      /Unknown tool: reveal_token/,
    );
    await expect(analyst.dispatch('tools/nope', {})).rejects.toMatchObject({ code: -32601 });
    // One export serves another caller when told who it is.
    const asLead = await analyst.handlers['tools/list']({}, { principal: lead.principal });
    expect((asLead.tools as { name: string }[]).map((t) => t.name)).toContain('reveal_token');

    const read = await lead.dispatch('resources/read', { uri: 'cloudg://datasets/sample/summary' });
    expect((read.contents as { uri: string }[])[0]?.uri).toBe('cloudg://datasets/sample/summary');
    const completion = await lead.dispatch('completion/complete', {
      ref: { type: 'ref/prompt', name: 'investigate_asset' },
      argument: { name: 'ref', value: 'web' },
    });
    expect((completion.completion as { values: string[] }).values).toContain('web-1');
    expect(JSON.parse(JSON.stringify(lead))).toEqual({
      server: lead.server,
      tools: lead.tools,
      resources: lead.resources,
      resourceTemplates: lead.resourceTemplates,
      prompts: lead.prompts,
    });
  });
});

describe('OpenAI (openai 6)', () => {
  it('a Chat Completions round trip: the model asks for find_assets, the layer answers', async () => {
    const layer = await sampleLayer();
    const tools: ChatCompletionTool[] = toOpenAITools(layer);
    const find = tools.find((t) => t.type === 'function' && t.function.name === 'find_assets');
    expect(find).toMatchObject({ type: 'function', function: { name: 'find_assets', strict: false } });
    const sent: unknown[] = [];
    const client = new OpenAI({
      apiKey: 'test',
      fetch: stubFetch(
        {
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: 'gpt-test',
          choices: [
            {
              index: 0,
              finish_reason: 'tool_calls',
              logprobs: null,
              message: {
                role: 'assistant',
                content: null,
                refusal: null,
                tool_calls: [
                  {
                    id: 'call_1',
                    type: 'function',
                    function: { name: 'find_assets', arguments: '{"provider":"GCP"}' },
                  },
                ],
              },
            },
          ],
        },
        sent,
      ),
    });
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Which GCP assets are there?' }],
      tools,
    };
    const reply = await client.chat.completions.create(params);
    expect((sent[0] as { tools: unknown[] }).tools).toHaveLength(tools.length);
    const call = reply.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function call');
    const answer = await runOpenAIToolCall(layer, call);
    expect(answer).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(JSON.parse(answer.content as string)).toMatchObject({ dataset: 'sample', total: 3 });

    // Bad JSON and unknown names come back as text the model can act on, not as exceptions.
    const bad = await runOpenAIToolCall(layer, {
      ...call,
      function: { name: 'find_assets', arguments: '{' },
    });
    expect(bad.content).toBe('Tool arguments are not valid JSON: send one JSON object');
    const unknown = await runOpenAIToolCall(layer, {
      ...call,
      function: { name: 'find_asset', arguments: '{}' },
    });
    expect(unknown.content).toMatch(/^Unknown tool: find_asset\. Did you mean find_assets/);
  });

  it('Responses API tools type-check against the SDK', async () => {
    const layer = await sampleLayer();
    const params: ResponseCreateParamsNonStreaming = {
      model: 'gpt-test',
      input: 'hi',
      tools: toOpenAIResponsesTools(layer),
    };
    expect(params.tools?.length).toBe(layer.toolsWire().length);
  });
});

describe('Anthropic (@anthropic-ai/sdk 1)', () => {
  it('a Messages round trip: tool_use through the layer, tool_result back, is_error on failure', async () => {
    const layer = await sampleLayer();
    const tools: ToolUnion[] = toAnthropicTools(layer);
    const sent: unknown[] = [];
    const client = new Anthropic({
      apiKey: 'test',
      fetch: stubFetch(
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'find_assets', input: GCP }],
          stop_reason: 'tool_use',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
        sent,
      ),
    });
    const params: MessageCreateParamsNonStreaming = {
      model: 'claude-test',
      max_tokens: 1024,
      tools,
      messages: [{ role: 'user', content: 'Which GCP assets are there?' }],
    };
    const reply = await client.messages.create(params);
    expect((sent[0] as { tools: { input_schema: { type: string } }[] }).tools[0]?.input_schema.type).toBe(
      'object',
    );
    const use = reply.content.find((block) => block.type === 'tool_use');
    if (use?.type !== 'tool_use') throw new Error('expected a tool_use block');
    const result = await runAnthropicToolUse(layer, use);
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: false });
    expect(JSON.parse(result.content as string)).toMatchObject({ total: 3 });
    const failed = await runAnthropicToolUse(layer, {
      id: 'toolu_2',
      name: 'find_assets',
      input: { limit: -5 },
    });
    expect(failed.is_error).toBe(true);
  });
});

describe('Vercel AI SDK (ai 6)', () => {
  it('generateText runs the tool through the layer and hands the model its text', async () => {
    const layer = await sampleLayer();
    const tools: ToolSet = toAiTools(layer);
    let step = 0;
    const prompts: unknown[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        step++;
        const usage = {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        };
        if (step === 1) {
          return {
            content: [
              { type: 'tool-call', toolCallId: 't1', toolName: 'find_assets', input: JSON.stringify(GCP) },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          };
        }
        return {
          content: [{ type: 'text', text: 'Three.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      tools,
      prompt: 'Which GCP assets?',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('Three.');
    const output = result.steps[0]?.toolResults[0]?.output as { structuredContent: { total: number } };
    expect(output.structuredContent.total).toBe(3);
    // The second model call saw the tool's text as the tool result.
    expect(JSON.stringify(prompts[1])).toContain('\\"total\\":3');
  });

  it('a failing call is an error-text result for the model, not an exception', async () => {
    const layer = await sampleLayer();
    const tool = toAiTools(layer).find_assets;
    const output = await tool?.execute?.({ limit: -5 }, { toolCallId: 'x', messages: [] });
    expect((output as { isError: boolean }).isError).toBe(true);
    const forModel = await tool?.toModelOutput?.({ toolCallId: 'x', input: {}, output });
    expect(forModel).toMatchObject({ type: 'error-text' });
    const unknownLayerError = exportDefinitions(layer).dispatch('tools/call', { name: 'nope' });
    await expect(unknownLayerError).rejects.toBeInstanceOf(McpLayerError);
  });
});
