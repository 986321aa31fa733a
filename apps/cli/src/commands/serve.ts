/** `serve`: the MCP server over stdio, Streamable HTTP or HTTP+SSE. */

import {
  checkServeOptions,
  createLayerFromOptions,
  type ServeOptions,
  serve,
  type TransportName,
  takeProtocolFd,
} from '@cloudg/server';
import { AuthConfigError } from '@cloudg/transports';
import { CliError, type CliIo } from '../io.js';
import { type LayerFlags, layerOptionsFrom } from '../options.js';

export interface ServeFlags extends LayerFlags {
  transport: string;
  host: string;
  port: number;
  path: string;
  flavor: string;
  authToken?: string[];
  allowedOrigin?: string[];
  allowedHost?: string[];
  corsOrigin?: string[];
  jsonResponse?: boolean;
  stateless?: boolean;
  cacheTtl?: number;
  maxConcurrency?: number;
  pageSize: number;
  logLevel: string;
}

export function serveOptionsFrom(flags: ServeFlags, io: CliIo): ServeOptions {
  const tokens = [...(flags.authToken ?? [])];
  const fromEnv = io.env.CLOUDG_MCP_AUTH_TOKENS?.trim();
  if (tokens.length === 0 && fromEnv) tokens.push(...fromEnv.split(/\s+/));
  return {
    transport: flags.transport as TransportName,
    flavor: flags.flavor,
    host: flags.host,
    port: flags.port,
    path: flags.path,
    authTokens: tokens,
    allowedOrigins: flags.allowedOrigin ?? [],
    allowedHosts: flags.allowedHost ?? [],
    corsOrigins: flags.corsOrigin ?? [],
    jsonResponse: Boolean(flags.jsonResponse),
    stateless: Boolean(flags.stateless),
    pageSize: flags.pageSize,
    logLevel: flags.logLevel,
    announce: (line) => io.stderr(`${line}\n`),
    onListening: ({ url }) =>
      io.stderr(
        `Connect a client: cloudg-mcp config --client claude-code --transport http --url ${url}` +
          `${tokens.length ? ' --token-env YOUR_TOKEN_VARIABLE' : ''} (or claude-desktop, cursor, vscode)\n`,
      ),
  };
}

export async function serveCommand(flags: ServeFlags, io: CliIo): Promise<number> {
  const options = serveOptionsFrom(flags, io);
  try {
    checkServeOptions(options);
  } catch (error) {
    if (error instanceof AuthConfigError)
      throw new CliError(`Invalid value for --auth-token: ${error.message}`, 2);
    throw error;
  }
  // stdio from a real process: serve from a relaunched child whose descriptor 1 is stderr, so
  // nothing but protocol messages can reach the client's stdout (MCP.md 6.1).
  if ((options.transport ?? 'stdio') === 'stdio') {
    const fd = takeProtocolFd(io.env);
    if (fd !== undefined) options.stdioFd = fd;
    else if (io.relaunchIsolated) return io.relaunchIsolated();
  }
  const layerOptions = await layerOptionsFrom(flags, io);
  if (flags.cacheTtl) layerOptions.cacheTtl = flags.cacheTtl;
  if (flags.maxConcurrency) layerOptions.maxConcurrency = flags.maxConcurrency;
  const server = await createLayerFromOptions(layerOptions);
  await serve(server, options);
  return 0;
}
