/**
 * A low-level SDK `Server` that is nothing but the layer (`buildServer(layer, 'sdk')`, and what
 * `cloudg-mcp serve --flavor sdk` runs), and the SDK's own Streamable HTTP handler serving one per
 * request in both protocol eras.
 */
import type { Layer } from '@cloudg/core';
import { MODERN_VERSION } from '@cloudg/transports';
import {
  createMcpHandler,
  type McpHttpHandler,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { forwardChanges } from './forward-changes.js';
import { type RegisterOptions, registerInto } from './register-into.js';

export interface SdkServerOptions extends RegisterOptions {
  /** The server name in `serverInfo`; default the layer's. */
  name?: string;
}

export function createSdkServer<TApp>(layer: Layer<TApp>, options: SdkServerOptions = {}): Server {
  const { name, ...register } = options;
  const { identity } = layer as Layer<unknown>;
  const server = new Server(
    // The native server's `serverInfo`: the title defaults to the name.
    { name: name ?? identity.name, title: name ?? identity.name, version: identity.version },
    {
      capabilities: {},
      // Both eras, as the native server: 2026-07-28 through `server/discover`, the handshake era
      // through `initialize`.
      supportedProtocolVersions: [MODERN_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS],
      ...(identity.instructions ? { instructions: identity.instructions } : {}),
    },
  );
  registerInto(server, layer, register);
  return server;
}

export interface SdkHttpHandler extends McpHttpHandler {
  /** Stops forwarding change events, then closes the SDK handler. */
  close(): Promise<void>;
}

/**
 * The SDK's Web-standard Streamable HTTP handler over the layer: a fresh server per request (the
 * SDK's stateless handshake era, and 2026-07-28), change events on the handler's event bus.
 * Authentication is the host's: pass `authInfo` to `fetch`, and a resolver (or the default one)
 * turns it into the principal.
 */
export interface SdkHttpHandlerOptions extends SdkServerOptions {
  /** `json` answers every POST with one JSON body (`--json-response`); default: the SDK's choice. */
  responseMode?: 'auto' | 'sse' | 'json';
}

export function createSdkHttpHandler<TApp>(
  layer: Layer<TApp>,
  options: SdkHttpHandlerOptions = {},
): SdkHttpHandler {
  const { responseMode, ...serverOptions } = options;
  // One forwarder for the handler, so the per-request servers do not each listen to the layer.
  const handler = createMcpHandler(
    () => createSdkServer(layer, { ...serverOptions, forwardChanges: false }),
    {
      legacy: 'stateless',
      ...(responseMode ? { responseMode } : {}),
    },
  );
  const stop = forwardChanges(layer, handler.notify);
  return {
    ...handler,
    fetch: handler.fetch,
    close: async () => {
      stop();
      await handler.close();
    },
  };
}
