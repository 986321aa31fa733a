/**
 * cloudg mounted into the official SDK (`@modelcontextprotocol/server` 2.4), reached with the
 * official client 2.4 in both protocol eras: the same answers as the native server on the same
 * layer, the host's own tool beside cloudg's, roles from the host's authentication, hidden tools
 * unknown, and a strict policy's pseudonyms.
 */
import { Principal } from '@cloudg/core';
import type { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type AuthInfo, InMemoryTransport, McpServer, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createSdkHttpHandler, PRINCIPAL_AUTH_KEY, registerInto } from '../src/sdk/index.js';
import {
  ERA,
  type Exercise,
  exercise,
  type Mode,
  nativeClient,
  newClient,
  withoutTasks,
} from './support/exercise.js';
import { sampleLayer } from './support/sample-layer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A mounted server over an in-memory stream, served the way the SDK serves stdio (`serveStdio`:
 * `server/discover` and 2026-07-28, or the `initialize` handshake).
 */
async function connectInMemory(server: McpServer | Server, mode: Mode): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(() => server, { transport: serverSide });
  const client = newClient(mode);
  await client.connect(clientSide);
  cleanups.push(async () => {
    await client.close();
    await handle.close();
  });
  return client;
}

/** The native server answers an anonymous HTTP caller; the in-memory mounts are given the same one. */
const anonymous = () => Principal.anonymous();

/** A host app's own `McpServer` with one tool of its own, cloudg mounted after it. */
function hostMcpServer(): McpServer {
  const server = new McpServer({ name: 'platform-tools', version: '1.0.0' });
  server.registerTool(
    'ticket_count',
    { description: 'How many open tickets a team has.', inputSchema: z.object({ team: z.string() }) },
    async () => ({ content: [{ type: 'text', text: '7' }] }),
  );
  return server;
}

/** The SDK's Web-standard handler with a host's bearer-token check in front of it. */
function sdkHttpClient(
  handler: ReturnType<typeof createSdkHttpHandler>,
  mode: Mode,
  tokens: Record<string, Principal>,
  token: string,
): Client {
  const client = newClient(mode);
  const fetchThrough = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const bearer = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
    const principal = tokens[bearer];
    if (!principal) return new Response('Unauthorized', { status: 401 });
    const authInfo: AuthInfo = {
      token: bearer,
      clientId: principal.id,
      scopes: [],
      extra: { [PRINCIPAL_AUTH_KEY]: principal },
    };
    return handler.fetch(request, { authInfo });
  };
  const transport = new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
    fetch: fetchThrough,
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  cleanups.push(async () => {
    await client.close();
  });
  return Object.assign(client, { pendingTransport: transport });
}

async function connectHttp(client: Client): Promise<Client> {
  await client.connect(
    (client as Client & { pendingTransport: StreamableHTTPClientTransport }).pendingTransport,
  );
  return client;
}

describe.each(['auto', 'legacy'] as const)('official client, negotiation %s', (mode) => {
  let native: Exercise | undefined;
  const nativeOn = async (layer: Awaited<ReturnType<typeof sampleLayer>>, prefix = '') => {
    const { client, close } = await nativeClient(layer, mode);
    cleanups.push(close);
    return exercise(client, prefix);
  };

  it(`McpServer mount: host tool and cloudg's answer as the native server (${ERA[mode]})`, async () => {
    const layer = await sampleLayer();
    native = await nativeOn(layer);
    const server = hostMcpServer();
    registerInto(server, layer, { principalResolver: anonymous });
    const client = await connectInMemory(server, mode);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools[0]).toBe('ticket_count');
    expect(tools).toContain('find_assets');
    const host = await client.callTool({ name: 'ticket_count', arguments: { team: 'sec' } });
    expect(host.content).toEqual([{ type: 'text', text: '7' }]);
    const mounted = await exercise(client);
    expect(native.version).toBe(ERA[mode]);
    // On 2025-11-25 the native server also marks the tools that can run as a task; the SDK mount
    // does not serve that era's experimental tasks (2026-07-28 tasks are an extension, not listed).
    const { record, taskTools } = withoutTasks(native);
    expect(taskTools).toEqual(mode === 'legacy' ? ['run_scanners'] : []);
    expect(mounted).toEqual(record);
    expect((mounted.findAssets as { structuredContent: { total: number } }).structuredContent.total).toBe(3);
  });

  it(`low-level Server mount with a prefix (${ERA[mode]})`, async () => {
    const layer = await sampleLayer({ prefix: 'cloudg_' });
    const reference = await nativeOn(layer, 'cloudg_');
    const server = new Server({ name: 'platform', version: '1.0.0' });
    registerInto(server, layer, { prefix: 'cloudg_', principalResolver: anonymous });
    const client = await connectInMemory(server, mode);
    const mounted = await exercise(client, 'cloudg_');
    expect(mounted.toolNames).toContain('cloudg_find_assets');
    expect(mounted.toolNames.every((n) => n.startsWith('cloudg_'))).toBe(true);
    expect(mounted).toEqual(withoutTasks(reference).record);
    // Only prefixed names resolve: the bare name is unknown, with the prefixed one suggested.
    await expect(client.callTool({ name: 'find_assets', arguments: {} })).rejects.toThrow(
      /Unknown tool: find_assets.*cloudg_find_assets/,
    );
  });

  it(`SDK HTTP handler: the host's token decides the roles (${ERA[mode]})`, async () => {
    const layer = await sampleLayer({ policy: 'soc-analyst' });
    const handler = createSdkHttpHandler(layer);
    cleanups.push(() => handler.close());
    const tokens = {
      'tok-analyst': new Principal({ id: 'ana', roles: ['analyst'] }),
      'tok-lead': new Principal({ id: 'lee', roles: ['lead'] }),
    };
    const analyst = await connectHttp(sdkHttpClient(handler, mode, tokens, 'tok-analyst'));
    const lead = await connectHttp(sdkHttpClient(handler, mode, tokens, 'tok-lead'));
    expect(analyst.getNegotiatedProtocolVersion()).toBe(ERA[mode]);
    const analystTools = (await analyst.listTools()).tools.map((t) => t.name);
    const leadTools = (await lead.listTools()).tools.map((t) => t.name);
    expect(leadTools).toContain('reveal_token');
    expect(analystTools).not.toContain('reveal_token');
    // Hidden is unknown: the same error as a name that does not exist.
    await expect(analyst.callTool({ name: 'reveal_token', arguments: { token: 'x' } })).rejects.toThrow(
      /Unknown tool: reveal_token/,
    );
    // The analyst works through pseudonyms; the lead sees real names.
    const asAnalyst = await analyst.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    const asLead = await lead.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    expect(JSON.stringify(asLead.structuredContent)).toContain('raw-uploads');
    expect(JSON.stringify(asAnalyst.structuredContent)).not.toContain('raw-uploads');
  });

  it(`SDK HTTP handler under strict: pseudonyms, identical to native (${ERA[mode]})`, async () => {
    const layer = await sampleLayer({ policy: 'strict' });
    const reference = await nativeOn(layer);
    const handler = createSdkHttpHandler(layer);
    cleanups.push(() => handler.close());
    const client = await connectHttp(
      sdkHttpClient(handler, mode, { t: new Principal({ id: 'anonymous' }) }, 't'),
    );
    const mounted = await exercise(client);
    expect(JSON.stringify(mounted.findAssets)).not.toContain('raw-uploads');
    expect(JSON.stringify(mounted.findAssets)).not.toContain('worker-1');
    expect(mounted).toEqual(reference);
    // The SDK server built for the layer introduces itself as the native one does.
    expect(client.getServerVersion()).toEqual({ name: 'cloudg', title: 'cloudg', version: '0.1.0' });
  });
});

describe.each(['auto', 'legacy'] as const)('McpServer mount under soc-analyst, negotiation %s', (mode) => {
  it('the resolved role decides what is listed, hidden tools are unknown, analysts get pseudonyms', async () => {
    const layer = await sampleLayer({ policy: 'soc-analyst' });
    const as = async (roles: string[]) => {
      const server = hostMcpServer();
      registerInto(server, layer, { principalResolver: () => new Principal({ id: roles[0], roles }) });
      return connectInMemory(server, mode);
    };
    const analyst = await as(['analyst']);
    const lead = await as(['lead']);
    expect((await lead.listTools()).tools.map((t) => t.name)).toContain('reveal_token');
    expect((await analyst.listTools()).tools.map((t) => t.name)).not.toContain('reveal_token');
    await expect(analyst.callTool({ name: 'reveal_token', arguments: { token: 'x' } })).rejects.toThrow(
      /Unknown tool: reveal_token/,
    );
    const seen = await analyst.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    expect(JSON.stringify(seen.structuredContent)).not.toContain('raw-uploads');
    const real = await lead.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    expect(JSON.stringify(real.structuredContent)).toContain('raw-uploads');
  });
});
