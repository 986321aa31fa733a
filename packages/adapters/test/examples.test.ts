/** The README's examples run as written, against stubbed frameworks (no network). */
import Anthropic from '@anthropic-ai/sdk';
import { Principal } from '@cloudg/core';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { MockLanguageModelV3 } from 'ai/test';
import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { aiSdk, anthropicLoop, openaiLoop } from '../examples/agents.examples.js';
import { exportForGateway } from '../examples/export.examples.js';
import { platformFastMCP } from '../examples/fastmcp.examples.js';
import { platformServer } from '../examples/mcp-server.examples.js';
import { PRINCIPAL_AUTH_KEY } from '../src/fastmcp/index.js';
import { sampleLayer } from './support/sample-layer.js';

/** A `fetch` answering each request with the next body. */
function scripted(bodies: unknown[]): typeof fetch {
  return async () =>
    new Response(JSON.stringify(bodies.shift()), { headers: { 'content-type': 'application/json' } });
}

it.each(['auto', 'legacy'] as const)(
  'mcp-server: the host tool and the prefixed cloudg tools (%s)',
  async (mode) => {
    const server = await platformServer();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(() => server, { transport: serverSide });
    const client = new Client({ name: 'example', version: '1' }, { versionNegotiation: { mode } });
    await client.connect(clientSide);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.slice(0, 2)).toEqual(['ticket_count', 'cloudg_workspace_status']);
    const found = await client.callTool({ name: 'cloudg_find_assets', arguments: { provider: 'GCP' } });
    expect((found.structuredContent as { total: number }).total).toBe(3);
    await client.close();
    await handle.close();
  },
);

it('export: a gateway dispatches through the layer', async () => {
  const layer = await sampleLayer({ policy: 'soc-analyst' });
  const result = (await exportForGateway(layer)) as { structuredContent: { total: number } };
  expect(result.structuredContent.total).toBe(3);
});

it('openai: the loop runs the tool call and ends with the model text', async () => {
  const layer = await sampleLayer({ policy: 'soc-analyst' });
  const choice = (message: Record<string, unknown>) => ({
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: { role: 'assistant', refusal: null, ...message },
      },
    ],
  });
  const client = new OpenAI({
    apiKey: 'test',
    fetch: scripted([
      choice({
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'find_assets', arguments: '{"provider":"GCP"}' },
          },
        ],
      }),
      choice({ content: 'Three GCP assets.' }),
    ]),
  });
  expect(await openaiLoop(client, layer, 'm')).toBe('Three GCP assets.');
});

it('anthropic: the loop answers tool_use with tool_result and ends with the model text', async () => {
  const layer = await sampleLayer({ policy: 'soc-analyst' });
  const message = (content: unknown[], stop: string) => ({
    id: 'msg',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  });
  const client = new Anthropic({
    apiKey: 'test',
    fetch: scripted([
      message([{ type: 'tool_use', id: 'tu1', name: 'find_assets', input: { provider: 'GCP' } }], 'tool_use'),
      message([{ type: 'text', text: 'Three GCP assets.' }], 'end_turn'),
    ]),
  });
  expect(await anthropicLoop(client, layer, 'm')).toBe('Three GCP assets.');
});

it('ai: generateText with the tools', async () => {
  const layer = await sampleLayer({ policy: 'soc-analyst' });
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  let step = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () =>
      step++ === 0
        ? {
            content: [
              { type: 'tool-call', toolCallId: 't', toolName: 'find_assets', input: '{"provider":"GCP"}' },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'text', text: 'Three.' }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          },
  });
  expect(await aiSdk(model, layer)).toBe('Three.');
});

it('fastmcp: the host tool and the prefixed cloudg tools, as the token maps to an analyst', async () => {
  const server = await platformFastMCP();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'example', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  // In memory there is no HTTP request to authenticate: the auth is handed to `connect`.
  const ana = new Principal({ id: 'ana', roles: ['default', 'analyst'] });
  const [session] = await Promise.all([
    server.connect(serverSide as never, { [PRINCIPAL_AUTH_KEY]: ana }),
    client.connect(clientSide),
  ]);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names.slice(0, 2)).toEqual(['ticket_count', 'cloudg_workspace_status']);
  expect(names).not.toContain('cloudg_reveal_token');
  const found = await client.callTool({ name: 'cloudg_find_assets', arguments: { provider: 'GCP' } });
  expect((found.structuredContent as { total: number }).total).toBe(3);
  await client.close();
  await session.close();
});
