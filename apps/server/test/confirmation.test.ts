/**
 * A policy confirmation on a real cloudg tool, end to end: the catalog's load_dataset under a
 * policy with a `confirm` entry, served over HTTP, called by the official client 2.4 with an
 * elicitation handler, in both protocol eras. A declined confirmation loads nothing.
 */
import { dirname, join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createLayerFromOptions, serve } from '../src/index.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');

describe.each(['auto', 'legacy'] as const)('a confirmed load_dataset, negotiation %s', (mode) => {
  it('asks the person, loads nothing when declined and loads when accepted', async () => {
    const server = await createLayerFromOptions({
      policy: { extends: 'open', confirm: [{ tools: ['load_dataset'] }] },
      allowedRoots: [dirname(MAP)],
    });
    const stop = new AbortController();
    let url = '';
    const done = serve(server, {
      transport: 'http',
      port: 0,
      signal: stop.signal,
      handleSignals: false,
      announce: () => {},
      onListening: (address) => {
        url = address.url;
      },
    });
    await new Promise<void>((resolve) => {
      const tick = () => (url ? resolve() : setTimeout(tick, 10));
      tick();
    });
    const asked: string[] = [];
    let action: 'accept' | 'decline' = 'decline';
    const client = new Client(
      { name: 'confirm-test', version: '1.0.0' },
      { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return action === 'accept' ? { action, content: { confirm: true } } : { action };
    });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const declined = await client.callTool({
        name: 'load_dataset',
        arguments: { path: MAP, name: 'prod' },
      });
      expect(declined.isError).toBe(true);
      expect(declined._meta?.['cloudg/error_code']).toBe('declined');
      expect(server.workspace.names()).toEqual([]);
      action = 'accept';
      const loaded = await client.callTool({ name: 'load_dataset', arguments: { path: MAP, name: 'prod' } });
      expect(loaded.isError).toBeFalsy();
      expect(server.workspace.names()).toEqual(['prod']);
      expect(asked).toEqual([
        'Run load_dataset? The policy asks you to confirm this call.',
        'Run load_dataset? The policy asks you to confirm this call.',
      ]);
    } finally {
      await client.close();
      stop.abort();
      await done;
    }
  });
});
