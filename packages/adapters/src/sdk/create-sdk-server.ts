/**
 * A low-level SDK `Server` that is nothing but the layer (`buildServer(layer, 'sdk')`, and what
 * `cloudg-mcp serve --flavor sdk` runs), and the SDK's own Streamable HTTP handler serving one per
 * request in both protocol eras.
 */
import type { Layer } from '@cloudg/core';
import { MODERN_VERSION, resolvePrincipal } from '@cloudg/transports';
import {
  createMcpHandler,
  type McpHandlerRequestOptions,
  type McpHttpHandler,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { forwardChanges } from './forward-changes.js';
import { restoreListenFilter, rewriteSseBody, toClientUris } from './listen-filters.js';
import { type RegisterOptions, registerInto } from './register-into.js';
import { requestInfoFromHttp } from './request-info.js';

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
  const base = layer as Layer<unknown>;

  // A 2026 listen filter naming pseudonymised URIs is restored to real ones before the SDK sees
  // it, and what the SDK sends on that stream is put back (see listen-filters.ts).
  const fetch = async (request: Request, options?: McpHandlerRequestOptions): Promise<Response> => {
    if (request.method !== 'POST') return handler.fetch(request, options);
    let message: unknown;
    try {
      message = JSON.parse(await request.clone().text());
    } catch {
      return handler.fetch(request, options);
    }
    if ((message as { method?: unknown } | null)?.method !== 'subscriptions/listen') {
      return handler.fetch(request, options);
    }
    const principal = await resolvePrincipal(
      serverOptions.principalResolver,
      requestInfoFromHttp(request, options?.authInfo),
      (error) => base.logger.warn({ err: error }, 'principal resolver failed; using the default'),
    );
    const restored = await restoreListenFilter(base, message as Record<string, unknown>, principal);
    if (!restored) return handler.fetch(request, options);
    const forwarded = new Request(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(restored.message),
      signal: request.signal,
    });
    const response = await handler.fetch(forwarded, options);
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      return response;
    }
    return new Response(
      rewriteSseBody(response.body, (sent) => toClientUris(sent, restored.sentAs)),
      { status: response.status, statusText: response.statusText, headers: response.headers },
    );
  };

  return {
    ...handler,
    fetch,
    close: async () => {
      stop();
      await handler.close();
    },
  };
}
