/**
 * `serve --flavor fastmcp` over stdio, in a process of its own as a desktop client launches it:
 * the official client 2.4 in `auto` mode is refused 2026-07-28 (-32022) and settles on
 * 2025-11-25, and gets the native stdio server's answers (without 2025-11-25 tasks, which the
 * fastmcp flavor does not serve).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./support/stdio-flavor.ts', import.meta.url));

async function launch(flavor: string, mode: 'auto' | 'legacy'): Promise<Client> {
  const client = new Client({ name: 'stdio-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@cloudg/source', '--import', 'tsx', SCRIPT, flavor],
      stderr: 'ignore',
    }),
  );
  return client;
}

/** Drop per-call values, the load time of each process's dataset, and the native tasks marker. */
function stable(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/"loaded_at":"[^"]*"/g, '"loaded_at":"-"');
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['cloudg/duration_ms', 'generated_at', 'execution'].includes(key))
      .map(([key, inner]) => [key, stable(inner)]),
  );
}

async function exercise(client: Client) {
  const call = await client.callTool({ name: 'find_assets', arguments: { provider: 'GCP' } });
  return stable({
    version: client.getNegotiatedProtocolVersion(),
    server: client.getServerVersion(),
    tools: (await client.listTools()).tools,
    call: { content: call.content, structuredContent: call.structuredContent, meta: call._meta },
    resource: (await client.readResource({ uri: 'cloudg://datasets/prod/summary' })).contents,
    prompt: (await client.getPrompt({ name: 'investigate_asset', arguments: { ref: 'web-1' } })).messages,
    completion: (
      await client.complete({
        ref: { type: 'ref/prompt', name: 'investigate_asset' },
        argument: { name: 'ref', value: 'web' },
      })
    ).completion,
  });
}

it('serves stdio in the handshake era with the native answers', { timeout: 180_000 }, async () => {
  const [fastmcp, native] = await Promise.all([launch('fastmcp', 'auto'), launch('native', 'legacy')]);
  try {
    expect(fastmcp.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const seen = await exercise(fastmcp);
    expect(seen).toEqual(await exercise(native));
    expect((seen as { call: { structuredContent: { total: number } } }).call.structuredContent.total).toBe(3);
  } finally {
    await fastmcp.close();
    await native.close();
  }
});
