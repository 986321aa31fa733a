/**
 * A user's FastMCP started the fastmcp way over stdio, in a process of its own: the client's very
 * first request after the handshake already sees cloudg (fastmcp announces a stdio session only
 * after the handshake; without the binding's gate that first tools/list listed the host's tool
 * alone, every time).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, it } from 'vitest';

const HOST = fileURLToPath(new URL('./support/fastmcp-stdio-host.ts', import.meta.url));

it('the first tools/list after the handshake lists the host tool and cloudg', {
  timeout: 60_000,
}, async () => {
  const client = new Client(
    { name: 'stdio-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@cloudg/source', '--import', 'tsx', HOST],
      stderr: 'ignore',
    }),
  );
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(names[0]).toBe('ticket_count');
    expect(names).toContain('find_assets');
    const found = await client.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
    expect((found.structuredContent as { total: number }).total).toBe(3);
  } finally {
    await client.close();
  }
});
