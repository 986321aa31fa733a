/**
 * Tools that ask the client, through the official client (`@modelcontextprotocol/client` 2.4)
 * with elicitation, sampling and roots handlers, in both eras over Streamable HTTP and stdio;
 * and the protocol's refusals: a client without the capability, tampered request state, a
 * cancelled call that waits for an answer, a declined confirmation.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { buildAskingLayer } from './support/asking-layer.js';
import { NODE_ARGS, PACKAGE_DIR } from './support/child.js';

type Mode = 'auto' | 'legacy';
const ERA: Record<Mode, string> = { auto: '2026-07-28', legacy: '2025-11-25' };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

let client: Client | undefined;
let running: RunningHttpServer | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await running?.close();
  running = undefined;
});

interface Answers {
  elicit: 'accept' | 'decline';
  asked: string[];
}

function askingClient(mode: Mode, answers: Answers): Client {
  const c = new Client(
    { name: 'cloudg-test', version: '1.0.0' },
    {
      versionNegotiation: { mode },
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    },
  );
  c.setRequestHandler('elicitation/create', async (request) => {
    answers.asked.push(String(request.params.message));
    return answers.elicit === 'accept'
      ? { action: 'accept', content: { confirm: true } }
      : { action: 'decline' };
  });
  c.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'short' },
    model: 'test-model',
  }));
  c.setRequestHandler('roots/list', async () => ({
    roots: [{ uri: 'file:///work/project', name: 'project' }],
  }));
  return c;
}

async function exercise(c: Client, answers: Answers, mode: Mode): Promise<void> {
  expect(c.getNegotiatedProtocolVersion()).toBe(ERA[mode]);
  const declined = await c.callTool({ name: 'purge', arguments: { target: 'web-1' } });
  expect(declined.structuredContent).toEqual({ purged: false, purges: 0 });
  answers.elicit = 'accept';
  const accepted = await c.callTool({ name: 'purge', arguments: { target: 'web-1' } });
  expect(accepted.structuredContent).toEqual({ purged: true, purges: 1 });
  expect(answers.asked).toEqual(['Purge web-1?', 'Purge web-1?']);
  const sampled = await c.callTool({ name: 'summarise', arguments: { text: 'a long text' } });
  expect(sampled.structuredContent).toMatchObject({ model: 'test-model', content: { text: 'short' } });
  const roots = await c.callTool({ name: 'where', arguments: {} });
  expect(roots.structuredContent).toEqual({ roots: ['file:///work/project'] });
}

describe.each(['auto', 'legacy'] as const)(
  'the official client answers a tool that asks, negotiation %s',
  (mode) => {
    it('over Streamable HTTP: a declined confirmation runs nothing, an accepted one runs once', async () => {
      running = await serveHttp(buildAskingLayer() as never, { port: 0 });
      const answers: Answers = { elicit: 'decline', asked: [] };
      client = askingClient(mode, answers);
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      await exercise(client, answers, mode);
    });

    it('over stdio', async () => {
      const answers: Answers = { elicit: 'decline', asked: [] };
      client = askingClient(mode, answers);
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: NODE_ARGS,
          cwd: PACKAGE_DIR,
          env: { ...(process.env as Record<string, string>), TEST_LAYER: 'asking' },
          stderr: 'pipe',
        }),
      );
      await exercise(client, answers, mode);
    });
  },
);

/** One raw 2026 request over HTTP, answered as JSON. */
async function post(url: string, id: number, method: string, params: Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(typeof params.name === 'string' ? { 'Mcp-Name': params.name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await res.text();
  const data = text.startsWith('{') ? JSON.parse(text) : JSON.parse(text.split('data: ').pop() ?? '{}');
  return { status: res.status, data };
}

describe('2026-07-28 multi round-trip requests over HTTP', () => {
  const call = (capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name: 'purge',
    arguments: { target: 'web-1' },
    ...extra,
    _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': capabilities },
  });

  it('answers input_required with a signed state, and refuses the state once tampered with', async () => {
    const state = { purges: [] as string[] };
    running = await serveHttp(buildAskingLayer(state) as never, { port: 0 });
    const first = await post(running.url, 1, 'tools/call', call({ elicitation: {} }));
    expect(first.data.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'confirm-1': { method: 'elicitation/create', params: { message: 'Purge web-1?' } } },
    });
    const requestState = first.data.result.requestState as string;
    const tampered = `${requestState.slice(0, -2)}${requestState.endsWith('A') ? 'B' : 'A'}A`;
    const refused = await post(
      running.url,
      2,
      'tools/call',
      call({ elicitation: {} }, { requestState: tampered, inputResponses: {} }),
    );
    expect(refused.data.error).toMatchObject({
      code: -32602,
      message: 'Invalid requestState: integrity check failed',
    });
    // The state is bound to its request: the same state on another target is refused.
    const elsewhere = await post(running.url, 3, 'tools/call', {
      ...call({ elicitation: {} }, { requestState, inputResponses: {} }),
      arguments: { target: 'db-1' },
    });
    expect(elsewhere.data.error).toMatchObject({
      code: -32602,
      message: 'Invalid requestState: issued for another request',
    });
    // Extra answers are ignored; the real one completes the call.
    const done = await post(
      running.url,
      4,
      'tools/call',
      call(
        { elicitation: {} },
        {
          requestState,
          inputResponses: { 'confirm-1': { action: 'accept', content: { confirm: true } }, stray: { x: 1 } },
        },
      ),
    );
    expect(done.data.result).toMatchObject({ resultType: 'complete', structuredContent: { purged: true } });
    expect(state.purges).toEqual(['web-1']);
  });

  it('refuses a client without elicitation with -32021 and HTTP 400, and runs nothing', async () => {
    const state = { purges: [] as string[] };
    running = await serveHttp(buildAskingLayer(state) as never, { port: 0 });
    const refused = await post(running.url, 1, 'tools/call', call({}));
    expect(refused.status).toBe(400);
    expect(refused.data.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(state.purges).toEqual([]);
  });
});

describe('handshake era: cancellation while waiting for an answer', () => {
  it('sends notifications/cancelled for the open question and runs nothing', async () => {
    const state = { purges: [] as string[] };
    running = await serveHttp(buildAskingLayer(state) as never, { port: 0 });
    let asked!: () => void;
    const question = new Promise<void>((resolve) => {
      asked = resolve;
    });
    client = new Client(
      { name: 'cloudg-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (_request, ctx) => {
      asked();
      // The person never answers; the server's cancellation aborts this handler.
      await new Promise((resolve) => ctx.mcpReq.signal.addEventListener('abort', resolve));
      return { action: 'cancel' };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'purge', arguments: { target: 'web-1' } },
      { signal: controller.signal },
    );
    await question;
    controller.abort();
    await expect(call).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(state.purges).toEqual([]);
  });
});

describe('request state across replicas', () => {
  it('a state signed by one server is accepted by another with the same key, refused by one without it', async () => {
    const key = 'k'.repeat(32);
    const state = { purges: [] as string[] };
    const first = await serveHttp(buildAskingLayer(state) as never, { port: 0, requestStateKey: key });
    const second = await serveHttp(buildAskingLayer(state) as never, { port: 0, requestStateKey: key });
    const other = await serveHttp(buildAskingLayer(state) as never, { port: 0 });
    try {
      const params = {
        name: 'purge',
        arguments: { target: 'web-1' },
        _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
      };
      const asked = await post(first.url, 1, 'tools/call', params);
      const retry = {
        ...params,
        requestState: asked.data.result.requestState,
        inputResponses: { 'cloudg-x': {}, 'confirm-1': { action: 'accept', content: { confirm: true } } },
      };
      const elsewhere = await post(other.url, 2, 'tools/call', retry);
      expect(elsewhere.data.error).toMatchObject({ code: -32602 });
      const done = await post(second.url, 3, 'tools/call', retry);
      expect(done.data.result).toMatchObject({ structuredContent: { purged: true } });
      expect(state.purges).toEqual(['web-1']);
    } finally {
      await Promise.all([first.close(), second.close(), other.close()]);
    }
  });
});
