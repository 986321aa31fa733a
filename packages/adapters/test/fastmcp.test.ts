/**
 * cloudg inside the npm `fastmcp` framework (4.20, on the 1.x SDK), reached with the official
 * client 2.4: a user's FastMCP with its own tool and cloudg registered into it, and the server the
 * fastmcp flavor builds. fastmcp speaks the handshake era only, so both clients end up on
 * 2025-11-25 (`auto` after the server refuses 2026-07-28); the answers are the native server's.
 */
import { Principal } from '@cloudg/core';
import { type Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { FastMCP } from 'fastmcp';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFastMCPServer, PRINCIPAL_AUTH_KEY, registerInto } from '../src/fastmcp/index.js';
import { type Exercise, exercise, type Mode, nativeClient, newClient } from './support/exercise.js';
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
    expect(mounted).toEqual(native);
    expect((mounted.findAssets as { structuredContent: { total: number } }).structuredContent.total).toBe(3);
  });

  it('the flavor server with a prefix: identical to native, bare names unknown', async () => {
    const layer = await sampleLayer({ prefix: 'cloudg_' });
    const reference = await nativeOn(layer, 'cloudg_');
    const { server } = createFastMCPServer(layer, { prefix: 'cloudg_' });
    const client = await connectInMemory(server, mode, anonymous);
    const mounted = await exercise(client, 'cloudg_');
    expect(mounted.toolNames.every((n) => n.startsWith('cloudg_'))).toBe(true);
    expect(mounted).toEqual(reference);
    expect(client.getServerVersion()).toEqual({ name: 'cloudg', title: 'cloudg', version: '0.1.0' });
    await expect(client.callTool({ name: 'find_assets', arguments: {} })).rejects.toThrow(
      /Unknown tool: find_assets.*cloudg_find_assets/,
    );
  });
});
