/**
 * The official TypeScript client (`@modelcontextprotocol/client` 2.4) against the native servers,
 * over stdio and HTTP, with version negotiation `auto` (lands on 2026-07-28) and legacy (2025-11-25).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { NODE_ARGS, PACKAGE_DIR } from './support/child.js';
import { buildLayer } from './support/test-layer.js';

type Mode = 'auto' | 'legacy';
const EXPECTED: Record<Mode, string> = { auto: '2026-07-28', legacy: '2025-11-25' };

let client: Client | undefined;
let running: RunningHttpServer | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await running?.close();
  running = undefined;
});

function newClient(mode: Mode): Client {
  return new Client({ name: 'cloudg-test', version: '1.0.0' }, { versionNegotiation: { mode } });
}

/** List, call, read and get through the client; the same answers in both eras. */
async function exercise(c: Client): Promise<void> {
  const tools = await c.listTools();
  expect(tools.tools.map((t) => t.name)).toEqual([
    'echo',
    'boom',
    'slow',
    'noisy',
    'shout',
    'shout_fd',
    'whoami',
    'touch',
  ]);
  const echo = await c.callTool({ name: 'echo', arguments: { text: 'hihi' } });
  expect(echo.isError).toBe(false);
  expect(echo.structuredContent).toEqual({ text: 'hihi' });
  const boom = await c.callTool({ name: 'boom', arguments: {} });
  expect(boom.isError).toBe(true);
  const resources = await c.listResources();
  expect(resources.resources.map((r) => r.uri)).toEqual(['test://status']);
  const templates = await c.listResourceTemplates();
  expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://items/{id}']);
  const read = await c.readResource({ uri: 'test://items/alpha' });
  expect(read.contents[0]).toMatchObject({ uri: 'test://items/alpha', mimeType: 'application/json' });
  expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({
    id: 'alpha',
    name: 'item alpha',
  });
  const prompt = await c.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
  expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
  await expect(c.readResource({ uri: 'test://items/omega' })).rejects.toThrow(/No item omega/);
}

describe.each(['auto', 'legacy'] as const)('official client, negotiation %s', (mode) => {
  it(`over stdio lands on ${EXPECTED[mode]}`, async () => {
    client = newClient(mode);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: NODE_ARGS,
      cwd: PACKAGE_DIR,
      env: { ...(process.env as Record<string, string>) },
      stderr: 'pipe',
    });
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe(EXPECTED[mode]);
    expect(client.getServerVersion()).toMatchObject({ name: 'cloudg', version: '0.1.0' });
    await exercise(client);
  });

  it(`over Streamable HTTP lands on ${EXPECTED[mode]}`, async () => {
    running = await serveHttp(buildLayer(), { port: 0, authTokens: ['s3cret:analyst:alice'] });
    client = newClient(mode);
    const transport = new StreamableHTTPClientTransport(new URL(running.url), {
      requestInit: { headers: { Authorization: 'Bearer s3cret' } },
    });
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe(EXPECTED[mode]);
    expect(client.getServerVersion()).toMatchObject({ name: 'cloudg', version: '0.1.0' });
    await exercise(client);
  });
});
