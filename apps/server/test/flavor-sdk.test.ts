/**
 * `serve --flavor sdk` and `buildServer`: the official SDK on the wire in front of the same layer.
 * The official client 2.4 in both eras gets what the native flavor gives; bearer tokens decide the
 * roles, a hidden tool is unknown, and the options the SDK flavor cannot honour are refused.
 */
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import { buildServer, checkServeOptions, createLayerFromOptions, serve } from '../src/index.js';
import { connect, exercise, serving } from './support/flavor-http.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
type Mode = 'auto' | 'legacy';
const ERA: Record<Mode, string> = { auto: '2026-07-28', legacy: '2025-11-25' };
describe.each(['auto', 'legacy'] as const)('serve --flavor sdk over HTTP, negotiation %s', (mode) => {
  it(`answers as the native flavor, with the token's roles (${ERA[mode]})`, async () => {
    const server = await createLayerFromOptions({ policy: 'soc-analyst', datasets: [`prod=${MAP}`] });
    const lines: string[] = [];
    const sdk = await serving(server, 'sdk', lines);
    const native = await serving(server, 'native');
    try {
      expect(lines[0]).toMatch(
        /^cloudg MCP server \(sdk, http\) listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/,
      );
      const lead = await connect(sdk.url, mode, 'tok-lee');
      const leadNative = await connect(native.url, mode, 'tok-lee');
      const analyst = await connect(sdk.url, mode, 'tok-ana');
      const analystNative = await connect(native.url, mode, 'tok-ana');
      expect(lead.getNegotiatedProtocolVersion()).toBe(ERA[mode]);
      expect(await exercise(lead)).toEqual(await exercise(leadNative));
      expect(await exercise(analyst)).toEqual(await exercise(analystNative));

      const leadTools = (await lead.listTools()).tools.map((t) => t.name);
      const analystTools = (await analyst.listTools()).tools.map((t) => t.name);
      expect(leadTools).toContain('reveal_token');
      expect(analystTools).not.toContain('reveal_token');
      await expect(analyst.callTool({ name: 'reveal_token', arguments: {} })).rejects.toThrow(
        /Unknown tool: reveal_token/,
      );
      // The analyst works through pseudonyms.
      const seen = await analyst.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
      expect(JSON.stringify(seen.structuredContent)).not.toContain('raw-uploads');
      for (const c of [lead, leadNative, analyst, analystNative]) await c.close();

      // No token, no entry; a foreign Origin is refused by the same guard as the native server's.
      const anonymous = await fetch(sdk.url, { method: 'POST', body: '{}' });
      expect(anonymous.status).toBe(401);
      const evil = await fetch(sdk.url, {
        method: 'POST',
        headers: { Authorization: 'Bearer tok-lee', Origin: 'https://evil.example' },
        body: '{}',
      });
      expect(evil.status).toBe(403);
    } finally {
      await sdk.close();
      await native.close();
    }
  });
});

describe('buildServer', () => {
  it('builds the SDK server for a layer, which an SDK transport serves in both eras', async () => {
    const { layer } = await createLayerFromOptions({ policy: 'standard', datasets: [`prod=${MAP}`] });
    // An SDK server serves one connection: one per client.
    for (const mode of ['auto', 'legacy'] as const) {
      const built = await buildServer(layer, 'sdk');
      if (built.flavor !== 'sdk') throw new Error('expected the sdk flavor');
      expect(built.server).toBeInstanceOf(Server);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const handle = serveStdio(() => built.server, { transport: serverSide });
      const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode } });
      await client.connect(clientSide);
      expect(client.getNegotiatedProtocolVersion()).toBe(ERA[mode]);
      const found = await client.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
      expect((found.structuredContent as { total: number }).total).toBe(3);
      await client.close();
      await handle.close();
    }
    expect((await buildServer(layer, 'auto')).flavor).toBe('native');
  });

  it('refuses what the SDK flavor cannot serve, before anything starts', () => {
    expect(() => checkServeOptions({ transport: 'http', flavor: 'sdk', corsOrigins: ['http://x'] })).toThrow(
      '--cors-origin is only supported by the native flavor (use --flavor native)',
    );
    expect(() => checkServeOptions({ transport: 'sse', flavor: 'sdk' })).toThrow(
      '--transport sse is only supported by the native flavor: the SDK has no legacy SSE server (use --flavor native)',
    );
    expect(
      checkServeOptions({ transport: 'http', flavor: 'sdk', jsonResponse: true, stateless: true }).flavor,
    ).toBe('sdk');
  });
});

describe('serve --flavor sdk start-up notes', () => {
  it('says which options it does not apply, and not for the CLI default page size', async () => {
    const server = await createLayerFromOptions({ policy: 'standard', datasets: [`prod=${MAP}`] });
    for (const [pageSize, expected] of [
      [100, []],
      [5, ['Note: --page-size is not applied by the sdk flavor (lists come in one page)']],
    ] as const) {
      const lines: string[] = [];
      const stop = new AbortController();
      await serve(server, {
        transport: 'http',
        flavor: 'sdk',
        port: 0,
        pageSize,
        signal: stop.signal,
        handleSignals: false,
        announce: (line) => lines.push(line),
        onListening: () => stop.abort(),
      });
      expect(lines.filter((l) => l.startsWith('Note:'))).toEqual(expected);
    }
  });
});
