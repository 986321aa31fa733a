/**
 * A `FastMCP` server that is nothing but the layer (`buildServer(layer, 'fastmcp')`, and what
 * `cloudg-mcp serve --flavor fastmcp` runs). It introduces itself as the native server does and
 * serves the handshake era only: fastmcp sits on the 1.x SDK. A 2026-07-28 request gets the
 * protocol's unsupported-version error (-32022, HTTP 400) naming 2025-11-25, over HTTP from the
 * `authenticate` hook (which fastmcp's HTTP stream runs before anything else, where the request's
 * `MCP-Protocol-Version` header is the only part of it available) and over other transports from
 * the handshake gate. Without the check, fastmcp's HTTP stream answers such a request with its own
 * -32000 "server_missing_modern_protocol_support".
 */
import type { IncomingMessage } from 'node:http';
import type { Layer } from '@cloudg/core';
import { HANDSHAKE_VERSIONS } from '@cloudg/transports';
import { FastMCP, type FastMCPSessionAuth } from 'fastmcp';
import { unsupportedVersionError } from './handshake-gate.js';
import { type FastMCPBinding, type FastMCPRegisterOptions, registerInto } from './register-into.js';

export interface FastMCPServerOptions extends FastMCPRegisterOptions {
  /** The server name in `serverInfo`; default the layer's. */
  name?: string;
  /**
   * fastmcp's per-request authentication (its HTTP stream calls it for every request; stdio and
   * `connect` pass the auth themselves). Throw a `Response` to refuse with its status and body; the
   * auth object returned is the session's, and a `Principal` under `PRINCIPAL_AUTH_KEY` in it is
   * who calls. Default: every request is let in with an empty auth (anonymous over HTTP).
   */
  authenticate?: (request: IncomingMessage) => Promise<FastMCPSessionAuth> | FastMCPSessionAuth;
}

export interface FastMCPServer {
  server: FastMCP<FastMCPSessionAuth>;
  binding: FastMCPBinding;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * fastmcp's log lines on the layer's logger. Its default is `console`, whose `info` and `debug`
 * write to stdout, which on stdio is the protocol stream.
 */
function fastmcpLogger(layer: Layer<unknown>) {
  const text = (args: unknown[]) =>
    args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' ');
  const { logger } = layer;
  return {
    debug: (...args: unknown[]) => logger.debug({ fastmcp: true }, text(args)),
    info: (...args: unknown[]) => logger.info({ fastmcp: true }, text(args)),
    log: (...args: unknown[]) => logger.info({ fastmcp: true }, text(args)),
    warn: (...args: unknown[]) => logger.warn({ fastmcp: true }, text(args)),
    error: (...args: unknown[]) => logger.error({ fastmcp: true }, text(args)),
  };
}

/** fastmcp wants `major.minor.patch`; a layer's version may carry more (a pre-release tag). */
function semver(version: string): `${number}.${number}.${number}` {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return (match ? `${match[1]}.${match[2]}.${match[3]}` : '0.0.0') as `${number}.${number}.${number}`;
}

export function createFastMCPServer<TApp>(
  layer: Layer<TApp>,
  options: FastMCPServerOptions = {},
): FastMCPServer {
  const { name, authenticate, ...register } = options;
  const { identity } = layer as Layer<unknown>;
  const server = new FastMCP<FastMCPSessionAuth>({
    name: name ?? identity.name,
    // The native server's `serverInfo`: the title defaults to the name.
    title: name ?? identity.name,
    version: semver(identity.version),
    ...(identity.instructions ? { instructions: identity.instructions } : {}),
    // The native server has no health route on its MCP port for this flavor, nor pings its clients.
    health: { enabled: false },
    logger: fastmcpLogger(layer as Layer<unknown>),
    ping: { enabled: false },
    // fastmcp would ask every client with the roots capability for its roots; cloudg does not use them.
    roots: { enabled: false },
    authenticate: async (request) => {
      // The host's checks first (Origin, Host, token), as the native server orders them.
      const auth = (await authenticate?.(request)) ?? {};
      const version = header(request, 'mcp-protocol-version');
      if (version !== undefined && !(HANDSHAKE_VERSIONS as readonly string[]).includes(version)) {
        // The body is not readable here, so the error cannot name the request's id (null, as
        // JSON-RPC allows when the id cannot be determined).
        throw new Response(JSON.stringify(unsupportedVersionError(null, version)), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        });
      }
      return auth;
    },
  });
  const binding = registerInto(server, layer, register);
  return { server, binding };
}
