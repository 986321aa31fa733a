/** `serve`: the MCP server over stdio, Streamable HTTP or HTTP+SSE. */

import {
  checkServeOptions,
  connectSharedState,
  createLayerFromOptions,
  REDIS_URL_ENV,
  RedisStartError,
  type ServeOptions,
  serve,
  startTracing,
  type TransportName,
  takeProtocolFd,
  traceExporterFrom,
  wantsStdioIsolation,
} from '@cloudg/server';
import { AuthConfigError } from '@cloudg/transports';
import { CliError } from '../cli-error.js';
import { userCommand } from '../client-config.js';
import type { CliIo } from '../io.js';
import type { LayerFlags } from '../layer-flags.js';
import { pinoLevelFor } from '../log-level.js';
import { type OAuthFlags, oauthOptionsFrom } from '../oauth-options.js';
import { layerOptionsFrom } from '../options.js';

export interface ServeFlags extends LayerFlags, OAuthFlags {
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
  clientRoots?: boolean;
  stateless?: boolean;
  cacheTtl?: number;
  maxConcurrency?: number;
  redisUrl?: string;
  pageSize: number;
  publicMetrics?: boolean;
  traces?: string;
}

export function serveOptionsFrom(flags: ServeFlags, io: CliIo): ServeOptions {
  const tokens = [...(flags.authToken ?? [])];
  const fromEnv = io.env.CLOUDG_MCP_AUTH_TOKENS?.trim();
  if (tokens.length === 0 && fromEnv) tokens.push(...fromEnv.split(/\s+/));
  const oauth = oauthOptionsFrom(flags, io.env);
  return {
    transport: flags.transport as TransportName,
    flavor: flags.flavor,
    host: flags.host,
    port: flags.port,
    path: flags.path,
    authTokens: tokens,
    ...(oauth ? { oauth } : {}),
    allowedOrigins: flags.allowedOrigin ?? [],
    allowedHosts: flags.allowedHost ?? [],
    corsOrigins: flags.corsOrigin ?? [],
    jsonResponse: Boolean(flags.jsonResponse),
    clientRoots: Boolean(flags.clientRoots),
    stateless: Boolean(flags.stateless),
    pageSize: flags.pageSize,
    publicMetrics: Boolean(flags.publicMetrics),
    logLevel: pinoLevelFor(flags.logLevel, io.env),
    announce: (line) => io.stderr(`${line}\n`),
    onListening: ({ url }) =>
      io.stderr(
        `Connect a client: ${userCommand(io.env)} config --client claude-code --transport http --url ${url}` +
          `${tokens.length && !oauth ? ' --token-env YOUR_TOKEN_VARIABLE' : ''} (or claude-desktop, cursor, vscode)\n`,
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
    // Asked before takeProtocolFd removes the variable that marks an already relaunched server.
    const relaunch = io.relaunchIsolated !== undefined && wantsStdioIsolation(io.env);
    const fd = takeProtocolFd(io.env);
    if (fd !== undefined) options.stdioFd = fd;
    else if (relaunch) return io.relaunchIsolated!();
  }
  // Without --dataset or --sample the server starts empty; workspace_status tells the agent how
  // to load data. The sample estate is fictitious and must not pass for an operator's own.
  const layerOptions = await layerOptionsFrom(flags, io, { sampleByDefault: false });
  if (flags.cacheTtl) layerOptions.cacheTtl = flags.cacheTtl;
  if (flags.maxConcurrency) layerOptions.maxConcurrency = flags.maxConcurrency;
  const redisUrl = flags.redisUrl ?? (io.env[REDIS_URL_ENV]?.trim() || undefined);
  if (redisUrl) {
    // Before the layer: a replica that cannot share its limits must not serve with private ones.
    // The policy is built again around the shared stores, from the source just validated.
    layerOptions.policy = flags.policy ?? (io.env.CLOUDG_MCP_POLICY?.trim() || 'standard');
    try {
      layerOptions.sharedState = await connectSharedState(redisUrl);
    } catch (error) {
      if (error instanceof RedisStartError)
        throw new CliError(`${error.message}; not starting (shared state is required with --redis-url)`, 2);
      throw error;
    }
  }
  const server = await createLayerFromOptions(layerOptions).catch(async (error: unknown) => {
    // A layer that could not be built (no vault key with --redis-url...) leaves no connection open.
    await layerOptions.sharedState?.close();
    throw error;
  });
  const exporter = traceExporterFrom(flags.traces, io.env);
  const traces = exporter === 'none' ? undefined : await startTracing(exporter, { env: io.env });
  if (traces) options.tracing = traces.tracing;
  try {
    await serve(server, options);
  } finally {
    // Spans still buffered go out before the process ends.
    await traces?.shutdown();
  }
  return 0;
}
