/**
 * The native handler mounted in an app's own `node:http` server and as a `fetch` handler, on the
 * sample estate: the official client in both eras gets exactly what the standalone native server
 * gives on the same layer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Layer } from '@cloudg/core';
import { createMcpRequestHandler } from '@cloudg/transports';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ERA, exercise, type Mode, nativeClient, newClient } from './support/exercise.js';
import { sampleLayer } from './support/sample-layer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(['auto', 'legacy'] as const)('mounted native handler, negotiation %s', (mode: Mode) => {
  it(`node:http and fetch mounts answer as the standalone server (${ERA[mode]})`, async () => {
    const layer = (await sampleLayer()) as Layer<unknown>;
    const native = await nativeClient(layer, mode);
    cleanups.push(native.close);
    const reference = await exercise(native.client);

    const handler = createMcpRequestHandler(layer);
    cleanups.push(() => handler.close());
    const app: Server = createServer((req, res) => handler(req, res, () => res.end('app')));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => app.close(() => resolve())));
    const port = (app.address() as AddressInfo).port;
    const viaNode = newClient(mode);
    await viaNode.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    cleanups.push(() => viaNode.close());
    expect(await exercise(viaNode)).toEqual(reference);

    const viaFetch = newClient(mode);
    await viaFetch.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input, init) => handler.fetch(new Request(input, init)),
      }),
    );
    cleanups.push(() => viaFetch.close());
    expect(await exercise(viaFetch)).toEqual(reference);
  });
});

describe.each(['auto', 'legacy'] as const)(
  'mounted native handler with tokens, negotiation %s',
  (mode: Mode) => {
    it(`tokens decide roles and a strict policy pseudonymises, as standalone (${ERA[mode]})`, async () => {
      const layer = (await sampleLayer({ policy: 'soc-analyst' })) as Layer<unknown>;
      const handler = createMcpRequestHandler(layer, {
        authTokens: ['tok-ana:analyst:ana', 'tok-lee:lead:lee'],
      });
      cleanups.push(() => handler.close());
      const connect = async (token: string) => {
        const client = newClient(mode);
        await client.connect(
          new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
            fetch: (input, init) => handler.fetch(new Request(input, init)),
            requestInit: { headers: { Authorization: `Bearer ${token}` } },
          }),
        );
        cleanups.push(() => client.close());
        return client;
      };
      const analyst = await connect('tok-ana');
      const lead = await connect('tok-lee');
      expect((await lead.listTools()).tools.map((t) => t.name)).toContain('reveal_token');
      expect((await analyst.listTools()).tools.map((t) => t.name)).not.toContain('reveal_token');
      await expect(analyst.callTool({ name: 'reveal_token', arguments: {} })).rejects.toThrow(/Unknown tool/);

      const strict = (await sampleLayer({ policy: 'strict' })) as Layer<unknown>;
      const native = await nativeClient(strict, mode);
      cleanups.push(native.close);
      const strictHandler = createMcpRequestHandler(strict);
      cleanups.push(() => strictHandler.close());
      const mounted = newClient(mode);
      await mounted.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
          fetch: (input, init) => strictHandler.fetch(new Request(input, init)),
        }),
      );
      cleanups.push(() => mounted.close());
      const result = await exercise(mounted);
      expect(JSON.stringify(result.findAssets)).not.toContain('raw-uploads');
      expect(result).toEqual(await exercise(native.client));
    });
  },
);
