/**
 * README: cloudg inside an existing `FastMCP` server of the npm fastmcp framework (region
 * `fastmcp`). test/examples.test.ts connects the official client to it.
 */
// #region fastmcp
import { join } from 'node:path';
import { PRINCIPAL_AUTH_KEY, registerInto } from '@cloudg/adapters/fastmcp';
import { createCatalogLayer, sampleEstateDir, Workspace } from '@cloudg/catalog';
import { Principal } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { FastMCP } from 'fastmcp';
import * as z from 'zod';
// #endregion fastmcp

export async function platformFastMCP(): Promise<FastMCP<{ [PRINCIPAL_AUTH_KEY]: Principal }>> {
  // #region fastmcp
  // fastmcp's auth convention: `authenticate` turns the request into the session's auth object;
  // a cloudg Principal under PRINCIPAL_AUTH_KEY is who calls cloudg's tools.
  const teams: Record<string, Principal> = {
    'tok-ana': new Principal({ id: 'ana', roles: ['default', 'analyst'] }),
  };
  const server = new FastMCP<{ [PRINCIPAL_AUTH_KEY]: Principal }>({
    name: 'platform-tools',
    version: '1.0.0',
    authenticate: async (request) => {
      const principal = teams[String(request.headers.authorization).replace(/^Bearer /, '')];
      if (!principal) throw new Response('Unauthorized', { status: 401 });
      return { [PRINCIPAL_AUTH_KEY]: principal };
    },
  });
  // The host's own tool, registered first.
  server.addTool({
    name: 'ticket_count',
    description: 'How many open tickets a team has.',
    parameters: z.object({ team: z.string() }),
    execute: async () => '7',
  });

  // One layer per prefix: the prefix belongs to the layer.
  const workspace = new Workspace();
  await workspace.preload(join(sampleEstateDir(), 'inventory', 'inventory-map.json'), { name: 'prod' });
  const layer = createCatalogLayer({ workspace, policy: Policy.load('soc-analyst'), prefix: 'cloudg_' });

  // Then cloudg, on every session fastmcp opens: ticket_count first, then cloudg_find_assets...
  registerInto(server, layer, { prefix: 'cloudg_' });
  // Serve it as usual: server.start({ transportType: 'stdio' }), or over fastmcp's HTTP stream with
  // server.start({ transportType: 'httpStream', httpStream: { port: 8080 } }).
  // #endregion fastmcp
  return server;
}
