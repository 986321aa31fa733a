/** The README's examples run as written. */
import { Layer, Registry } from '@cloudg/core';
import { expect, it } from 'vitest';
import * as z from 'zod';
import { appWithMcp, fetchHandler } from '../examples/mount.examples.js';
import { observability } from '../examples/observability.examples.js';
import { quickstart } from '../examples/quickstart.examples.js';
import { buildLayer } from './support/test-layer.js';

it('quick start: serves a layer over HTTP and answers a 2026-07-28 tools/call', async () => {
  expect(await quickstart()).toEqual({ version: 'complete', echoed: { text: 'hello' } });
});

it('metrics and traces: a call leaves a span in the exporter and a count in the registry', async () => {
  const registry = new Registry();
  registry.tool({
    name: 'echo',
    input: { text: z.string() },
    handler: (_ctx, args) => ({ text: args.text }),
  });
  const { server, exporter, registry: metrics } = await observability(new Layer({ registry }));
  try {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer s3cret',
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'echo',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'echo',
          arguments: { text: 'hi' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    await response.json();
  } finally {
    await server.close();
  }
  expect(exporter.getFinishedSpans().map((s) => s.name)).toContain('tools/call echo');
  expect(await metrics.metrics()).toContain('cloudg_http_requests_total');
});

it('mount: the app keeps its routes and serves MCP on its own port; the fetch form answers too', async () => {
  const { app, mcp } = appWithMcp(buildLayer());
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(app.address() as { port: number }).port}`;
    expect(await (await fetch(`${base}/hello`)).text()).toBe('hello from the app');
    const call = (url: string) =>
      new Request(url, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer s3cret',
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/call',
          'Mcp-Name': 'echo',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'echo',
            arguments: { text: 'hi' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
    const viaNode = (await (await fetch(call(`${base}/mcp`))).json()) as {
      result: { structuredContent: unknown };
    };
    expect(viaNode.result.structuredContent).toEqual({ text: 'hi' });
    const viaFetch = (await (await fetchHandler(buildLayer())(call('http://127.0.0.1/mcp'))).json()) as {
      result: { structuredContent: unknown };
    };
    expect(viaFetch.result.structuredContent).toEqual({ text: 'hi' });
  } finally {
    await mcp.close();
    await new Promise<void>((resolve) => app.close(() => resolve()));
  }
});
