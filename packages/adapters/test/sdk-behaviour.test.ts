/**
 * What `registerInto` promises beyond answering like the native server (MCP.md 8.1, 8.7, 8.8,
 * 8.10): change notifications, name collisions, the prefix staying the layer's, the `include`
 * subset, resolver fallbacks and the era's code for a missing resource.
 */
import { Layer, LayerConfigError, Principal, Registry } from '@cloudg/core';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createSdkHttpHandler, createSdkServer, registerInto } from '../src/sdk/index.js';
import { type Mode, newClient } from './support/exercise.js';
import { sampleLayer } from './support/sample-layer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connect(server: McpServer | Server, mode: Mode): Promise<Client> {
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

function waitFor<T>(register: (resolve: (value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no notification within 5 s')), 5000);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

describe('change notifications (handshake era)', () => {
  it('list changes reach the client, and resource updates reach the sessions that subscribed', async () => {
    const layer = await sampleLayer();
    const server = new Server({ name: 'host', version: '1' });
    registerInto(server, layer);
    const client = await connect(server, 'legacy');
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });

    const toolsChanged = waitFor<string>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', (n) => resolve(n.method)),
    );
    layer.notifyChange('tools');
    expect(await toolsChanged).toBe('notifications/tools/list_changed');

    const updated = waitFor<string>((resolve) =>
      client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)),
    );
    // Not subscribed yet: this one is not sent.
    layer.notifyChange('resource', 'cloudg://datasets');
    await client.subscribeResource({ uri: 'cloudg://workspace' });
    layer.notifyChange('resource', 'cloudg://workspace');
    expect(await updated).toBe('cloudg://workspace');
  });
});

describe('names', () => {
  it('a tool the host already has keeps the host version, in the list and when called', async () => {
    const layer = await sampleLayer();
    const server = new McpServer({ name: 'host', version: '1' });
    server.registerTool(
      'find_assets',
      { description: 'The host’s own search.', inputSchema: z.object({}) },
      async () => ({ content: [{ type: 'text', text: 'host answer' }] }),
    );
    registerInto(server, layer);
    const client = await connect(server, 'auto');
    const tools = (await client.listTools()).tools.filter((t) => t.name === 'find_assets');
    expect(tools).toHaveLength(1);
    expect(tools[0]?.description).toBe('The host’s own search.');
    const result = await client.callTool({ name: 'find_assets', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'host answer' }]);
    // cloudg's other tools are there.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('get_asset');
  });

  it('refuses a prefix that is not the layer’s, and unknown include kinds', async () => {
    const layer = await sampleLayer({ prefix: 'cloudg_' });
    const server = new Server({ name: 'host', version: '1' });
    expect(() => registerInto(server, layer, { prefix: 'other_' })).toThrow(LayerConfigError);
    expect(() => registerInto(server, layer, { prefix: 'other_' })).toThrow(
      'The prefix belongs to the layer: build the layer with this prefix (one layer per prefix) instead of changing it when mounting',
    );
    expect(() => registerInto(server, layer, { include: ['tools', 'widgets' as 'tools'] })).toThrow(
      /Unknown include kind; choose from: tools, resources, templates, prompts, completions, logging, subscriptions/,
    );
  });

  it('include registers only what it names', async () => {
    const layer = await sampleLayer();
    const server = new Server({ name: 'host', version: '1' });
    registerInto(server, layer, { include: ['tools'] });
    const client = await connect(server, 'legacy');
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    // Without the capability the client does not even ask.
    expect((await client.listPrompts()).prompts).toEqual([]);
  });
});

describe.each(['auto', 'legacy'] as const)('errors and principals, negotiation %s', (mode) => {
  it('a missing resource is -32602 in both eras (the SDK rewrites -32002), with the layer message', async () => {
    const layer = await sampleLayer();
    const server = new Server({ name: 'host', version: '1' });
    registerInto(server, layer);
    const client = await connect(server, mode);
    const error = await client.readResource({ uri: 'cloudg://assets/no-such-asset' }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string },
    );
    // The native server answers -32002 on the handshake era; the SDK 2.x never sends -32002 and
    // maps it to -32602, which the spec asks clients to accept as well.
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(/^No asset matches the reference/);
  });

  it('a resolver that throws or returns nothing falls back to the default resolver', async () => {
    const layer = await sampleLayer({ policy: 'soc-analyst' });
    const seen: string[] = [];
    for (const resolver of [
      () => {
        throw new Error('resolver broke');
      },
      () => null,
      () => new Principal({ id: 'lee', roles: ['lead'] }),
    ]) {
      const server = new Server({ name: 'host', version: '1' });
      registerInto(server, layer, { principalResolver: resolver });
      const client = await connect(server, mode);
      const names = (await client.listTools()).tools.map((t) => t.name);
      seen.push(names.includes('reveal_token') ? 'lead' : 'default');
    }
    // Without HTTP the default is the local user, who is not a lead; the resolver's principal is.
    expect(seen).toEqual(['default', 'default', 'lead']);
  });
});

describe.each(['auto', 'legacy'] as const)(
  'progress and cancellation through the SDK, negotiation %s',
  (mode) => {
    it('a tool’s progress reaches the client, and the request’s signal reaches the handler', async () => {
      const registry = new Registry();
      let aborted = false;
      registry.tool({
        name: 'steps',
        description: 'Reports progress, then waits until cancelled.',
        input: { wait: z.boolean().default(false) },
        handler: async (ctx, args) => {
          await ctx.reportProgress(1, 2, 'half');
          await ctx.reportProgress(2, 2, 'done');
          if (args.wait) {
            await new Promise<void>((resolve) =>
              ctx.signal.addEventListener(
                'abort',
                () => {
                  aborted = true;
                  resolve();
                },
                { once: true },
              ),
            );
          }
          return { ok: true };
        },
      });
      const server = new Server({ name: 'host', version: '1' });
      registerInto(server, new Layer({ registry }));
      const client = await connect(server, mode);
      const seen: number[] = [];
      const result = await client.callTool(
        { name: 'steps', arguments: {} },
        { onprogress: (progress) => seen.push(progress.progress) },
      );
      expect(result.structuredContent).toEqual({ ok: true });
      expect(seen).toEqual([1, 2]);

      const stop = new AbortController();
      const pending = client.callTool({ name: 'steps', arguments: { wait: true } }, { signal: stop.signal });
      await new Promise((resolve) => setTimeout(resolve, 200));
      stop.abort();
      await expect(pending).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(aborted).toBe(true);
    });
  },
);

describe('change notifications (2026-07-28 listen streams)', () => {
  it('reach a listening client through the SDK HTTP handler and through the SDK stdio server', async () => {
    const layer = await sampleLayer();
    const handler = createSdkHttpHandler(layer);
    cleanups.push(() => handler.close());
    const viaHttp = newClient('auto');
    await viaHttp.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input, init) => handler.fetch(new Request(input, init)),
      }),
    );
    cleanups.push(() => viaHttp.close());
    const viaStdio = await connect(createSdkServer(layer), 'auto');
    for (const client of [viaHttp, viaStdio]) {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const seen: string[] = [];
      client.setNotificationHandler('notifications/tools/list_changed', (n) => {
        seen.push(n.method);
      });
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        seen.push(n.params.uri);
      });
      const subscription = await client.listen({
        toolsListChanged: true,
        resourceSubscriptions: ['cloudg://workspace'],
      });
      layer.notifyChange('tools');
      layer.notifyChange('resource', 'cloudg://datasets');
      layer.notifyChange('resource', 'cloudg://workspace');
      await waitFor<void>((resolve) => {
        const tick = () => (seen.length >= 2 ? resolve() : setTimeout(tick, 20));
        tick();
      });
      expect(seen.sort()).toEqual(['cloudg://workspace', 'notifications/tools/list_changed']);
      await subscription.close();
    }
  });
});
