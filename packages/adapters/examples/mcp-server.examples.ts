/**
 * README: cloudg inside an existing `McpServer` (region `mcp-server`). test/examples.test.ts
 * connects the official client to it in both eras.
 */
// #region mcp-server
import { join } from 'node:path';
import { registerInto } from '@cloudg/adapters/sdk';
import { createCatalogLayer, sampleEstateDir, Workspace } from '@cloudg/catalog';
import { Policy } from '@cloudg/policy';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
// #endregion mcp-server

export async function platformServer(): Promise<McpServer> {
  // #region mcp-server
  // The host's own server and tool, registered first.
  const server = new McpServer({ name: 'platform-tools', version: '1.0.0' });
  server.registerTool(
    'ticket_count',
    { description: 'How many open tickets a team has.', inputSchema: z.object({ team: z.string() }) },
    async () => ({ content: [{ type: 'text', text: '7' }] }),
  );

  // One layer per prefix: the prefix belongs to the layer.
  const workspace = new Workspace();
  await workspace.preload(join(sampleEstateDir(), 'inventory', 'inventory-map.json'), { name: 'prod' });
  const layer = createCatalogLayer({ workspace, policy: Policy.load('standard'), prefix: 'cloudg_' });

  // Then cloudg: tools/list shows ticket_count first, then cloudg_find_assets and the rest.
  registerInto(server, layer, { prefix: 'cloudg_' });
  // Serve it as usual, e.g. serveStdio(() => server) from '@modelcontextprotocol/server/stdio'.
  // #endregion mcp-server
  return server;
}
