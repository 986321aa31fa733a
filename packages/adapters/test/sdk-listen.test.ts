/**
 * Resource updates from SDK mounts under a pseudonymising policy. 2026-07-28 `subscriptions/listen`
 * through the SDK's HTTP handler:
 * a filter naming the pseudonymised URI the client was shown matches the layer's update of the
 * real resource, and the client is told under its own URI (acknowledgement and update), never the
 * real one, as the native server does. The handshake era's `resources/subscribe` the same way.
 */
import { Principal } from '@cloudg/core';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { expect, it } from 'vitest';
import { exportDefinitions } from '../src/index.js';
import { createSdkHttpHandler, registerInto, restoringListenFilters } from '../src/sdk/index.js';
import { sampleLayer } from './support/sample-layer.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'listen-test', version: '1' },
};

/** Read SSE `data:` messages from a response until `done` says stop. */
async function readEvents(response: Response, done: (events: Record<string, unknown>[]) => boolean) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: Record<string, unknown>[] = [];
  let text = '';
  while (!done(events)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
    let end = text.indexOf('\n\n');
    while (end !== -1) {
      const data = text
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      if (data) events.push(JSON.parse(data.slice(6)) as Record<string, unknown>);
      text = text.slice(end + 2);
      end = text.indexOf('\n\n');
    }
    if (events.length === 1) onAcknowledged?.();
  }
  await reader.cancel();
  return events;
}
let onAcknowledged: (() => void) | undefined;

it('a listen filter with a pseudonymised URI gets the update under that URI', async () => {
  const layer = await sampleLayer({ policy: 'strict' });
  const handler = createSdkHttpHandler(layer);
  try {
    // The URI of an asset as an anonymous HTTP caller sees it under strict: a pseudonym.
    const found = (await exportDefinitions(layer, Principal.anonymous()).dispatch('tools/call', {
      name: 'find_assets',
      arguments: { provider: 'GCP' },
    })) as { structuredContent: { items: { uri: string }[] } };
    const shown = found.structuredContent.items[0]?.uri ?? '';
    const real = await layer.realResourceUri(shown, Principal.anonymous());
    expect(real).not.toBe(shown);

    const response = await handler.fetch(
      new Request('http://mcp.test/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'subscriptions/listen',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'listen-1',
          method: 'subscriptions/listen',
          params: { notifications: { resourceSubscriptions: [shown] }, _meta: META },
        }),
      }),
    );
    expect(response.status).toBe(200);
    onAcknowledged = () => layer.notifyChange('resource', real);
    const events = await readEvents(response, (seen) => seen.length >= 2);
    const sub = { 'io.modelcontextprotocol/subscriptionId': 'listen-1' };
    expect(events).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { resourceSubscriptions: [shown] }, _meta: sub },
      },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: shown, _meta: sub } },
    ]);
    expect(JSON.stringify(events)).not.toContain(real);
  } finally {
    onAcknowledged = undefined;
    await handler.close();
  }
});

it('handshake era: an SDK mount tells a subscriber under the pseudonymised URI it subscribed with', async () => {
  const layer = await sampleLayer({ policy: 'strict' });
  const server = new Server({ name: 'host', version: '1' });
  registerInto(server, layer, { principalResolver: () => Principal.anonymous() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(() => server, { transport: serverSide });
  const client = new Client(
    { name: 'listen-test', version: '1' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  await client.connect(clientSide);
  try {
    const found = await client.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    const shown = (found.structuredContent as { items: { uri: string }[] }).items[0]?.uri ?? '';
    const real = await layer.realResourceUri(shown, Principal.anonymous());
    expect(real).not.toBe(shown);
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler('notifications/resources/updated', (n) => resolve(n.params.uri)),
    );
    await client.subscribeResource({ uri: shown });
    layer.notifyChange('resource', real);
    expect(await updated).toBe(shown);
  } finally {
    await client.close();
    await handle.close();
  }
});

it('over a stream (serveStdio): the listen filter is restored the same way', async () => {
  const layer = await sampleLayer({ policy: 'strict' });
  const anonymous = () => Principal.anonymous();
  const server = new Server({ name: 'host', version: '1' });
  registerInto(server, layer, { principalResolver: anonymous });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(() => server, {
    transport: restoringListenFilters(layer, serverSide, anonymous),
  });
  const found = (await exportDefinitions(layer, Principal.anonymous()).dispatch('tools/call', {
    name: 'find_assets',
    arguments: { provider: 'GCP' },
  })) as { structuredContent: { items: { uri: string }[] } };
  const shown = found.structuredContent.items[0]?.uri ?? '';
  const real = await layer.realResourceUri(shown, Principal.anonymous());
  const received: Record<string, unknown>[] = [];
  const updated = new Promise<void>((resolve) => {
    clientSide.onmessage = (message) => {
      received.push(message as Record<string, unknown>);
      const method = (message as { method?: string }).method;
      if (method === 'notifications/subscriptions/acknowledged') layer.notifyChange('resource', real);
      if (method === 'notifications/resources/updated') resolve();
    };
  });
  await clientSide.start();
  try {
    await clientSide.send({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: [shown] }, _meta: META },
    });
    await updated;
    const sub = { 'io.modelcontextprotocol/subscriptionId': 'listen-1' };
    expect(received).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { resourceSubscriptions: [shown] }, _meta: sub },
      },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: shown, _meta: sub } },
    ]);
  } finally {
    await handle.close();
  }
});
