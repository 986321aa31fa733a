/**
 * Tools that ask, on a handshake-era HTTP server that answers POSTs as plain JSON
 * (`jsonResponse`): the question travels on the session's GET stream, as 2025-11-25 allows for
 * server-to-client requests; with no GET stream open the call is refused at once and says why,
 * instead of waiting for a stream that may never open.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpServer, serveHttp } from '../src/index.js';
import { buildAskingLayer } from './support/asking-layer.js';

let running: RunningHttpServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await running?.close();
  running = undefined;
});

const HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

describe('asking the client with jsonResponse', () => {
  it('reaches the official client 2.4 through its GET stream', async () => {
    const state = { purges: [] as string[] };
    running = await serveHttp(buildAskingLayer(state) as never, { port: 0, jsonResponse: true });
    client = new Client(
      { name: 'json-response', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { confirm: true },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    const result = await client.callTool({ name: 'purge', arguments: { target: 'web-1' } });
    expect(result.structuredContent).toEqual({ purged: true, purges: 1 });
    expect(state.purges).toEqual(['web-1']);
  });

  it('refuses at once, running nothing, when the session has no GET stream open', async () => {
    const state = { purges: [] as string[] };
    running = await serveHttp(buildAskingLayer(state) as never, { port: 0, jsonResponse: true });
    const init = await fetch(running.url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: {} },
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    const session = init.headers.get('mcp-session-id') ?? '';
    const headers = { ...HEADERS, 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' };
    await fetch(running.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const started = Date.now();
    const res = await fetch(running.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'purge', arguments: { target: 'web-1' } },
      }),
    });
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as { result: Record<string, unknown> };
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(body.result.isError).toBe(true);
    expect(body.result._meta).toMatchObject({ 'cloudg/error_code': 'client_unreachable' });
    expect(JSON.stringify(body.result.content)).toContain('no open GET stream');
    expect(state.purges).toEqual([]);
  });
});
