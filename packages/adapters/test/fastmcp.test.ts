/**
 * cloudg inside the npm `fastmcp` framework (4.20, on the 1.x SDK), reached with the official
 * client 2.4: a user's FastMCP with its own tool and cloudg registered into it, and the server the
 * fastmcp flavor builds. fastmcp speaks the handshake era only, so both clients end up on
 * 2025-11-25 (`auto` after the server refuses 2026-07-28); the answers are the native server's.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Layer, Principal, Registry } from '@cloudg/core';
import { type Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FastMCP } from 'fastmcp';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFastMCPServer, PRINCIPAL_AUTH_KEY, registerInto } from '../src/fastmcp/index.js';
import {
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

/** A host's own FastMCP with one tool of its own. */
function hostFastMCP(): FastMCP {
  const server = new FastMCP({ name: 'platform-tools', version: '1.0.0' });
  server.addTool({
    name: 'ticket_count',
    description: 'How many open tickets a team has.',
    parameters: z.object({ team: z.string() }),
    execute: async () => '7',
  });
  return server;
}

/** Connect the official client to a FastMCP in memory, through fastmcp's own `connect`. */
async function connectInMemory(server: FastMCP, mode: Mode, auth?: Record<string, unknown>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = newClient(mode);
  const [session] = await Promise.all([
    server.connect(serverSide as never, auth),
    client.connect(clientSide),
  ]);
  cleanups.push(async () => {
    await client.close();
    await session.close();
  });
  return client;
}

const anonymous = { [PRINCIPAL_AUTH_KEY]: Principal.anonymous() };

describe.each(['auto', 'legacy'] as const)('official client, negotiation %s', (mode) => {
  const nativeOn = async (layer: Awaited<ReturnType<typeof sampleLayer>>, prefix = '') => {
    const { client, close } = await nativeClient(layer, 'legacy');
    cleanups.push(close);
    return exercise(client, prefix);
  };

  it('a user FastMCP: the host tool and cloudg answer as the native server (2025-11-25)', async () => {
    const layer = await sampleLayer();
    const native: Exercise = await nativeOn(layer);
    const server = hostFastMCP();
    registerInto(server, layer);
    const client = await connectInMemory(server, mode, anonymous);
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools[0]).toBe('ticket_count');
    expect(tools).toContain('find_assets');
    const host = await client.callTool({ name: 'ticket_count', arguments: { team: 'sec' } });
    expect(host.content).toEqual([{ type: 'text', text: '7' }]);
    const mounted = await exercise(client);
    const { record, taskTools } = withoutTasks(native);
    expect(mounted).toEqual(record);
    expect(taskTools).toEqual(['run_scanners']);
    expect((mounted.findAssets as { structuredContent: { total: number } }).structuredContent.total).toBe(3);
  });

  it('the flavor server with a prefix: identical to native, bare names unknown', async () => {
    const layer = await sampleLayer({ prefix: 'cloudg_' });
    const reference = await nativeOn(layer, 'cloudg_');
    const { server } = createFastMCPServer(layer, { prefix: 'cloudg_' });
    const client = await connectInMemory(server, mode, anonymous);
    const mounted = await exercise(client, 'cloudg_');
    expect(mounted.toolNames.every((n) => n.startsWith('cloudg_'))).toBe(true);
    expect(mounted).toEqual(withoutTasks(reference).record);
    expect(client.getServerVersion()).toEqual({ name: 'cloudg', title: 'cloudg', version: '0.1.0' });
    await expect(client.callTool({ name: 'find_assets', arguments: {} })).rejects.toThrow(
      /Unknown tool: find_assets.*cloudg_find_assets/,
    );
  });
});

/** A free port: fastmcp's HTTP stream does not report the one it bound. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A user's FastMCP on its HTTP stream, with fastmcp's own auth convention: `authenticate` maps the
 * bearer token to the session's auth object, which carries the cloudg principal.
 */
async function userHttpServer(layer: Awaited<ReturnType<typeof sampleLayer>>) {
  // The roles a native `--auth-token tok-lead:lead:lee` gives (every token also has `default`).
  const users: Record<string, Principal> = {
    'tok-analyst': new Principal({ id: 'ana', roles: ['default', 'analyst'] }),
    'tok-lead': new Principal({ id: 'lee', roles: ['default', 'lead'] }),
  };
  const server = new FastMCP<{ user: string; [PRINCIPAL_AUTH_KEY]: Principal }>({
    name: 'platform-tools',
    version: '1.0.0',
    logger: { debug() {}, info() {}, log() {}, warn() {}, error() {} },
    authenticate: async (request) => {
      const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      const principal = users[token];
      if (!principal) throw new Response('Unauthorized', { status: 401 });
      return { user: principal.id, [PRINCIPAL_AUTH_KEY]: principal };
    },
  });
  server.addTool({ name: 'ticket_count', description: 'Open tickets.', execute: async () => '7' });
  const binding = registerInto(server, layer);
  const port = await freePort();
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', cors: false } });
  cleanups.push(async () => {
    binding.dispose();
    await server.stop();
  });
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  return async (token: string) => {
    const client = newClient('legacy');
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    cleanups.push(() => client.close());
    return client;
  };
}

describe("a user's FastMCP over its HTTP stream", () => {
  it("the principal from fastmcp's authenticate decides what is listed; hidden is unknown; analysts get pseudonyms", async () => {
    const layer = await sampleLayer({ policy: 'soc-analyst' });
    const connect = await userHttpServer(layer);
    const analyst = await connect('tok-analyst');
    const lead = await connect('tok-lead');
    const leadTools = (await lead.listTools()).tools.map((t) => t.name);
    expect(leadTools[0]).toBe('ticket_count');
    expect(leadTools).toContain('reveal_token');
    expect((await analyst.listTools()).tools.map((t) => t.name)).not.toContain('reveal_token');
    await expect(analyst.callTool({ name: 'reveal_token', arguments: { token: 'x' } })).rejects.toThrow(
      /Unknown tool: reveal_token/,
    );
    const seen = await analyst.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    expect(JSON.stringify(seen.structuredContent)).not.toContain('raw-uploads');
    const real = await lead.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    expect(JSON.stringify(real.structuredContent)).toContain('raw-uploads');
  });

  it('under a strict policy: pseudonyms, and the same answers as the native server', async () => {
    const layer = await sampleLayer({ policy: 'strict' });
    const reference = await (async () => {
      const { client, close } = await nativeClient(layer, 'legacy', {
        spec: 'tok-lead:lead:lee',
        value: 'tok-lead',
      });
      cleanups.push(close);
      return exercise(client);
    })();
    const connect = await userHttpServer(layer);
    const mounted = await exercise(await connect('tok-lead'));
    expect(JSON.stringify(mounted.findAssets)).not.toContain('raw-uploads');
    expect(JSON.stringify(mounted.findAssets)).not.toContain('worker-1');
    expect(mounted).toEqual(withoutTasks(reference).record);
  });
});

describe('change notifications on fastmcp sessions', () => {
  it('declares cloudg capabilities; list changes reach every session; updates come under the subscribed (pseudonymised) URI', async () => {
    const layer = await sampleLayer({ policy: 'strict' });
    const server = hostFastMCP();
    registerInto(server, layer);
    const client = await connectInMemory(server, 'legacy', anonymous);
    // Added to what fastmcp declared for the host's tool (completions, logging, tools).
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
    const toolsChanged = new Promise<string>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', (n) => resolve(n.method)),
    );
    layer.notifyChange('tools');
    expect(await toolsChanged).toBe('notifications/tools/list_changed');

    // An asset as a strict caller sees it: its URI carries a pseudonym.
    const found = await client.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    const item = (found.structuredContent as { items: { uri: string }[] }).items[0];
    if (!item) throw new Error('expected an asset');
    const real = await layer.realResourceUri(item.uri, Principal.anonymous());
    expect(real).not.toBe(item.uri);
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)),
    );
    await client.subscribeResource({ uri: item.uri });
    layer.notifyChange('resource', real);
    expect(await updated).toBe(item.uri);
  });
});

describe('cancellation', () => {
  it("a running call's signal aborts when the session ends", async () => {
    const registry = new Registry();
    let aborted: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    registry.tool({
      name: 'wait',
      description: 'Waits until cancelled.',
      input: {},
      handler: (ctx) =>
        new Promise((resolve) => {
          started();
          ctx.signal.addEventListener('abort', () => {
            aborted();
            resolve({ stopped: true });
          });
        }),
    });
    const server = new FastMCP({ name: 'host', version: '1.0.0' });
    registerInto(server, new Layer({ registry }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = newClient('legacy');
    const [session] = await Promise.all([server.connect(serverSide as never), client.connect(clientSide)]);
    client.callTool({ name: 'wait', arguments: {} }).catch(() => {});
    await running;
    await session.close();
    await stopped;
    await client.close();
  });
});

describe('names', () => {
  it('a tool the host already has keeps the host version, in the list and when called', async () => {
    const layer = await sampleLayer();
    const server = new FastMCP({ name: 'host', version: '1.0.0' });
    server.addTool({
      name: 'find_assets',
      description: 'The host’s own search.',
      execute: async () => 'host answer',
    });
    registerInto(server, layer);
    const client = await connectInMemory(server, 'legacy', anonymous);
    const tools = (await client.listTools()).tools;
    expect(tools.filter((t) => t.name === 'find_assets').map((t) => t.description)).toEqual([
      'The host’s own search.',
    ]);
    const answer = await client.callTool({ name: 'find_assets', arguments: {} });
    expect(answer.content).toEqual([{ type: 'text', text: 'host answer' }]);
    // cloudg's other tools are there, and a name nobody has gets cloudg's error with close matches.
    expect(tools.map((t) => t.name)).toContain('get_asset');
    await expect(client.callTool({ name: 'get_assett', arguments: {} })).rejects.toThrow(
      /Unknown tool: get_assett.*get_asset/,
    );
  });
});
