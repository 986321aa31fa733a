/**
 * The request schemas (and the stdio transport) of the 1.x MCP SDK that fastmcp runs on. Handlers on a fastmcp session's
 * server are installed with that SDK's own `setRequestHandler(schema, handler)`, so the SDK parses
 * requests and checks `tools/call` results exactly as it does for fastmcp's handlers. The SDK is
 * fastmcp's dependency, not ours: it is resolved from fastmcp's own location, which finds the copy
 * fastmcp actually uses under any package manager's layout.
 */
import { createRequire } from 'node:module';

export const SDK1_METHODS = {
  'tools/list': 'ListToolsRequestSchema',
  'tools/call': 'CallToolRequestSchema',
  'resources/list': 'ListResourcesRequestSchema',
  'resources/read': 'ReadResourceRequestSchema',
  'resources/templates/list': 'ListResourceTemplatesRequestSchema',
  'resources/subscribe': 'SubscribeRequestSchema',
  'resources/unsubscribe': 'UnsubscribeRequestSchema',
  'prompts/list': 'ListPromptsRequestSchema',
  'prompts/get': 'GetPromptRequestSchema',
  'completion/complete': 'CompleteRequestSchema',
} as const;
export type Sdk1Method = keyof typeof SDK1_METHODS;

let schemas: Record<Sdk1Method, unknown> | undefined;

/** A module of the SDK fastmcp runs on, resolved from fastmcp's own location. */
function fromFastmcp(path: string): Record<string, unknown> {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('fastmcp'))(path) as Record<string, unknown>;
}

/** The 1.x SDK's stdio server transport, as fastmcp's own `start({ transportType: 'stdio' })` makes it. */
export function sdk1StdioTransport(): unknown {
  const { StdioServerTransport } = fromFastmcp('@modelcontextprotocol/sdk/server/stdio.js');
  if (typeof StdioServerTransport !== 'function') {
    throw new TypeError("fastmcp's @modelcontextprotocol/sdk has no StdioServerTransport");
  }
  return new (StdioServerTransport as new () => unknown)();
}

/** The schema object the SDK keys `method`'s handler by. */
export function sdk1Schema(method: Sdk1Method): unknown {
  if (!schemas) {
    const types = fromFastmcp('@modelcontextprotocol/sdk/types.js');
    const loaded: Partial<Record<Sdk1Method, unknown>> = {};
    for (const [name, exported] of Object.entries(SDK1_METHODS) as [Sdk1Method, string][]) {
      if (!types[exported]) {
        throw new TypeError(
          `fastmcp's @modelcontextprotocol/sdk has no ${exported}: registerInto was checked with fastmcp 4.20 on SDK 1.x`,
        );
      }
      loaded[name] = types[exported];
    }
    schemas = loaded as Record<Sdk1Method, unknown>;
  }
  return schemas[method];
}
