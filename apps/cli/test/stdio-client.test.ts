/**
 * MCP.md 3 and 6.1: a desktop client launches `cloudg-mcp serve` over stdio, exactly as the
 * generated configuration says, and talks to it with the official client in both protocol eras.
 * The launch goes through the stdio isolation relaunch.
 *
 * @dist it runs the built `cloudg-mcp`.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { cli, PROD } from './helpers.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

describe.each(['auto', 'legacy'] as const)('a desktop client over stdio, negotiation %s', (mode) => {
  it('launches the configured command, lists tools and calls find_assets on the sample estate', async () => {
    // The command and arguments `cloudg-mcp config` writes for Claude Desktop.
    const config = JSON.parse(
      // serve starts empty: the user names their data, here the sample estate's inventory map.
      (await cli(['config', '--client', 'claude-desktop', '--command', `node ${BIN}`, '--dataset', PROD]))
        .stdout,
    ) as {
      mcpServers: { cloudg: { command: string; args: string[] } };
    };
    const { command, args } = config.mcpServers.cloudg;
    expect(args.slice(-3)).toEqual(['serve', '--dataset', PROD]);
    const client = new Client({ name: 'stdio-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(
      new StdioClientTransport({
        command: command === 'node' ? process.execPath : command,
        args,
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25');
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor);
      expect(names).toContain('find_assets');
      const result = await client.callTool({
        name: 'find_assets',
        arguments: { internet_exposed: true, limit: 3 },
      });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toMatchObject({ total: 6, returned: 3 });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe.each(['auto', 'legacy'] as const)('serve --flavor sdk over stdio, negotiation %s', (mode) => {
  it('the official SDK on the wire answers find_assets on the sample estate', async () => {
    const client = new Client({ name: 'stdio-sdk-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--flavor', 'sdk', '--dataset', PROD],
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25');
      // One page: the SDK flavor does not page lists.
      const page = await client.listTools();
      expect(page.nextCursor).toBeUndefined();
      expect(page.tools.map((t) => t.name)).toContain('find_assets');
      const result = await client.callTool({
        name: 'find_assets',
        arguments: { internet_exposed: true, limit: 3 },
      });
      expect(result.structuredContent).toMatchObject({ total: 6, returned: 3 });
      const prompt = await client.getPrompt({ name: 'investigate_asset', arguments: { ref: 'web-1' } });
      expect(prompt.messages.length).toBeGreaterThan(0);
      const read = await client.readResource({ uri: 'cloudg://workspace' });
      expect(read.contents[0]).toMatchObject({ uri: 'cloudg://workspace', mimeType: 'application/json' });
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'investigate_asset' },
        argument: { name: 'ref', value: 'web' },
      });
      expect(completion.completion.values).toContain('web-1');
    } finally {
      await client.close();
    }
  }, 60_000);
});
