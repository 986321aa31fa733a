/**
 * `serve --flavor fastmcp` and `buildServer(layer, 'fastmcp')`: a server of the npm fastmcp
 * framework (4.20, on the 1.x SDK) in front of the same layer. It speaks the handshake era only:
 * the official client 2.4 negotiating `auto` is refused 2026-07-28 with -32022 and settles on
 * 2025-11-25. Results are the native flavor's (handshake era); bearer tokens decide the roles, a
 * hidden tool is unknown, a strict policy pseudonymises, and options fastmcp cannot honour are
 * refused before anything starts.
 */
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { FastMCP } from 'fastmcp';
import { describe, expect, it } from 'vitest';
import { buildServer, checkServeOptions, createLayerFromOptions } from '../src/index.js';
import { connect, exercise, serving } from './support/flavor-http.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
/** A 2026-07-28 request as the official client sends it first in `auto` mode. */
function discover(url: string, token: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'server/discover',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

// Each fastmcp session takes about a second to open (fastmcp waits for the client's capabilities),
// and the comparisons open several: generous time for a machine busy with the rest of the suite.
describe('serve --flavor fastmcp over HTTP', { timeout: 90_000 }, () => {
  it("answers as the native flavor in the handshake era, with the token's roles", async () => {
    const server = await createLayerFromOptions({ policy: 'soc-analyst', datasets: [`prod=${MAP}`] });
    const lines: string[] = [];
    const fastmcp = await serving(server, 'fastmcp', lines);
    const native = await serving(server, 'native');
    try {
      expect(lines[0]).toMatch(
        /^cloudg MCP server \(fastmcp, http\) listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/,
      );
      // `auto` asks for 2026-07-28 first, is refused with -32022, and falls back to the handshake.
      const lead = await connect(fastmcp.url, 'auto', 'tok-lee');
      const analyst = await connect(fastmcp.url, 'legacy', 'tok-ana');
      const leadNative = await connect(native.url, 'legacy', 'tok-lee');
      const analystNative = await connect(native.url, 'legacy', 'tok-ana');
      expect(lead.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(await exercise(lead)).toEqual(await exercise(leadNative));
      expect(await exercise(analyst)).toEqual(await exercise(analystNative));

      const leadTools = (await lead.listTools()).tools.map((t) => t.name);
      const analystTools = (await analyst.listTools()).tools.map((t) => t.name);
      expect(leadTools).toContain('reveal_token');
      expect(analystTools).not.toContain('reveal_token');
      await expect(analyst.callTool({ name: 'reveal_token', arguments: {} })).rejects.toThrow(
        /Unknown tool: reveal_token/,
      );
      const seen = await analyst.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
      expect(JSON.stringify(seen.structuredContent)).not.toContain('raw-uploads');
      const real = await lead.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
      expect(JSON.stringify(real.structuredContent)).toContain('raw-uploads');
      for (const c of [lead, leadNative, analyst, analystNative]) await c.close();

      // The protocol's unsupported-version error for a 2026-07-28 request.
      const refused = await discover(fastmcp.url, 'tok-lee');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32022,
          message: 'Unsupported protocol version: 2026-07-28',
          data: { supported: ['2025-11-25'], requested: '2026-07-28' },
        },
      });
      // No token, no entry; a foreign Origin is refused by the native server's guard.
      expect((await fetch(fastmcp.url, { method: 'POST', body: '{}' })).status).toBe(401);
      const evil = await fetch(fastmcp.url, {
        method: 'POST',
        headers: { Authorization: 'Bearer tok-lee', Origin: 'https://evil.example' },
        body: '{}',
      });
      expect(evil.status).toBe(403);
    } finally {
      await fastmcp.close();
      await native.close();
    }
  });

  it('pseudonymises under a strict policy exactly as the native flavor does', async () => {
    const server = await createLayerFromOptions({ policy: 'strict', datasets: [`prod=${MAP}`] });
    const fastmcp = await serving(server, 'fastmcp', [], ['tok']);
    const native = await serving(server, 'native', [], ['tok']);
    try {
      const client = await connect(fastmcp.url, 'legacy', 'tok');
      const reference = await connect(native.url, 'legacy', 'tok');
      const seen = await exercise(client);
      expect(JSON.stringify(seen)).not.toContain('raw-uploads');
      expect(seen).toEqual(await exercise(reference));
      await client.close();
      await reference.close();
    } finally {
      await fastmcp.close();
      await native.close();
    }
  });
});

describe('buildServer(layer, "fastmcp")', () => {
  it('builds a FastMCP server for the layer, which serves a connected transport', async () => {
    const { layer } = await createLayerFromOptions({ policy: 'standard', datasets: [`prod=${MAP}`] });
    const built = await buildServer(layer, 'fastmcp');
    if (built.flavor !== 'fastmcp') throw new Error('expected the fastmcp flavor');
    expect(built.server).toBeInstanceOf(FastMCP);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    const [session] = await Promise.all([
      built.server.connect(serverSide as never),
      client.connect(clientSide),
    ]);
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const found = await client.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    expect((found.structuredContent as { total: number }).total).toBe(3);
    await client.close();
    await session.close();
  });

  it('refuses what the fastmcp flavor cannot serve, before anything starts', () => {
    const refused: [Parameters<typeof checkServeOptions>[0], string][] = [
      [
        { transport: 'http', flavor: 'fastmcp', corsOrigins: ['http://x'] },
        '--cors-origin is only supported by the native flavor (use --flavor native)',
      ],
      [
        { transport: 'sse', flavor: 'fastmcp' },
        '--transport sse is only supported by the native flavor: fastmcp 4 has no legacy SSE server (use --flavor native)',
      ],
      [
        { transport: 'http', flavor: 'fastmcp', stateless: true },
        '--stateless is not supported by the fastmcp flavor: fastmcp does not announce stateless sessions (use --flavor native or sdk)',
      ],
      [
        { transport: 'stdio', flavor: 'fastmcp', clientRoots: true },
        '--client-roots is only supported by the native flavor (use --flavor native)',
      ],
    ];
    for (const [options, message] of refused) expect(() => checkServeOptions(options)).toThrow(message);
    expect(checkServeOptions({ transport: 'http', flavor: 'fastmcp', jsonResponse: true }).flavor).toBe(
      'fastmcp',
    );
  });
});
