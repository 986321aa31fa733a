/**
 * `buildServer(layer, flavor)` (MCP.md 8.9): the object that speaks MCP for a layer, unserved,
 * for callers who run it themselves. `native` is the protocol engine of @cloudg/transports (give it
 * to `serveStdio`, `serveHttp` or a session of your own); `sdk` is the official SDK's low-level
 * `Server` with the layer registered (connect it to any SDK transport, or `serveStdio` from
 * `@modelcontextprotocol/server/stdio`); `fastmcp` is a `FastMCP` server with the layer registered
 * (`start()` it, or `connect` a transport). The SDK and fastmcp are loaded only when asked for.
 */
import type { Layer } from '@cloudg/core';
import { McpProtocolServer, type PrincipalResolver, type ProtocolOptions } from '@cloudg/transports';
import type { Server } from '@modelcontextprotocol/server';
import type { FastMCP, FastMCPSessionAuth } from 'fastmcp';
import { type Flavor, resolveFlavor } from './flavors.js';

export interface BuildServerOptions {
  /** The server name in `serverInfo`; default the layer's. */
  name?: string;
  /** SDK and fastmcp flavors: who is calling, from the framework's request context (MCP.md 8.8). */
  principalResolver?: PrincipalResolver;
  /** Native flavor: paging, log level, cache hints, batch limits, tracing. */
  native?: ProtocolOptions;
}

export type BuiltServer =
  | { flavor: 'native'; server: McpProtocolServer }
  | { flavor: 'sdk'; server: Server }
  | { flavor: 'fastmcp'; server: FastMCP<FastMCPSessionAuth> };

export async function buildServer<TApp>(
  layer: Layer<TApp>,
  flavor: Flavor | string = 'auto',
  options: BuildServerOptions = {},
): Promise<BuiltServer> {
  const resolved = resolveFlavor(flavor);
  if (resolved === 'sdk') {
    const { createSdkServer } = await import('@cloudg/adapters/sdk');
    const server = createSdkServer(layer, {
      ...(options.name ? { name: options.name } : {}),
      ...(options.principalResolver ? { principalResolver: options.principalResolver } : {}),
    });
    return { flavor: 'sdk', server };
  }
  if (resolved === 'fastmcp') {
    const { createFastMCPServer } = await import('@cloudg/adapters/fastmcp');
    const { server } = createFastMCPServer(layer, {
      ...(options.name ? { name: options.name } : {}),
      ...(options.principalResolver ? { principalResolver: options.principalResolver } : {}),
    });
    return { flavor: 'fastmcp', server };
  }
  const native = { ...options.native, ...(options.name ? { title: options.name } : {}) };
  return { flavor: 'native', server: new McpProtocolServer(layer as Layer<unknown>, native) };
}
