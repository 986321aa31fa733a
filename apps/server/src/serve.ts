/**
 * Serving a layer over stdio or Streamable HTTP, with the start-up line, the warning for an
 * unauthenticated non-loopback bind, and the vault saved however serving ends.
 */
import type {
  RedisChangeFanout,
  RedisLegacySseRelay,
  RedisSessionStore,
  RedisSharedState,
  RedisTaskRelay,
  RedisTaskStore,
} from '@cloudg/redis';
import {
  type DependencyChecks,
  isLoopbackAddress,
  type OAuthOptions,
  serveHttp,
  serveStdio,
  TokenAuth,
  type TracingOptions,
} from '@cloudg/transports';
import type { ServerLayer } from './create-layer.js';
import { checkFlavorCombination, type ResolvedFlavor, resolveFlavor, ServeOptionsError } from './flavors.js';
import { serveFastmcp } from './serve-fastmcp.js';
import { serveSdk } from './serve-sdk.js';
import { vaultSealer } from './shared-workspace.js';

export const TRANSPORTS = ['stdio', 'http', 'streamable-http', 'sse'] as const;
export type TransportName = (typeof TRANSPORTS)[number];
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR'] as const;

export interface ServeOptions {
  transport?: TransportName;
  flavor?: string;
  host?: string;
  port?: number;
  path?: string;
  /** Token specs `TOKEN[:ROLES[:ID]]`; `TOKEN` may be `env:VAR`. Validated always, used over HTTP only. */
  authTokens?: readonly string[];
  /**
   * Accept access tokens from this OAuth issuer (native flavor over HTTP; docs/sign-in.md).
   * Static tokens from `authTokens` keep working beside them.
   */
  oauth?: OAuthOptions;
  allowedOrigins?: readonly string[];
  allowedHosts?: readonly string[];
  corsOrigins?: readonly string[];
  jsonResponse?: boolean;
  stateless?: boolean;
  pageSize?: number;
  /** DEBUG, INFO, WARNING or ERROR (any case; pino's names work too). Default WARNING. */
  logLevel?: string;
  /** Stop serving when this aborts (tests, embedding). SIGINT and SIGTERM always stop it. */
  signal?: AbortSignal;
  /** Called once an HTTP server listens. */
  onListening?: (address: { host: string; port: number; url: string }) => void;
  /** Where the start-up line and warnings go. Default stderr. */
  announce?: (line: string) => void;
  /** Handle SIGINT, SIGTERM and SIGHUP. Default true. */
  handleSignals?: boolean;
  /**
   * stdio: write protocol messages to this inherited descriptor instead of stdout (see
   * `relaunchIsolated`); stdout by default.
   */
  stdioFd?: number;
  /**
   * HTTP: serve `/metrics` without a bearer token (a scraper on a trusted network). By default it
   * takes the same token as `/mcp`.
   */
  publicMetrics?: boolean;
  /** An OpenTelemetry span per request (see `startTracing`). Off when absent. */
  tracing?: TracingOptions;
  /**
   * stdio only: the folders the client opened (MCP roots) become the workspace's allowed roots,
   * inside any roots the operator set, never a filesystem root or the home directory.
   */
  clientRoots?: boolean;
}

/** The documented names, and pino's own spellings (what CLOUDG_LOG_LEVEL may hold), to pino's. */
const PINO_LEVELS: Record<string, string> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARNING: 'warn',
  ERROR: 'error',
  TRACE: 'trace',
  WARN: 'warn',
  FATAL: 'fatal',
  SILENT: 'silent',
};

/** Validate option combinations and token specs before anything starts. */
export function checkServeOptions(options: ServeOptions): {
  flavor: ResolvedFlavor;
  auth: TokenAuth | undefined;
} {
  const transport = options.transport ?? 'stdio';
  // Combinations a flavor cannot serve are reported before whether the flavor is available, so
  // the message names the real conflict whichever flavors this build has.
  checkFlavorCombination(options.flavor, transport, options);
  const flavor = resolveFlavor(options.flavor);
  if (!(TRANSPORTS as readonly string[]).includes(transport)) {
    throw new ServeOptionsError(`Unknown transport '${transport}'; choose one of: ${TRANSPORTS.join(', ')}`);
  }
  if (options.logLevel !== undefined && !PINO_LEVELS[options.logLevel.toUpperCase()]) {
    throw new ServeOptionsError(
      `Unknown log level '${options.logLevel}'; choose one of: ${LOG_LEVELS.join(', ')}`,
    );
  }
  // Over HTTP several people share one workspace: one client's folders must not widen it for all.
  if (options.clientRoots && transport !== 'stdio')
    throw new ServeOptionsError('--client-roots is served over stdio only');
  if (options.pageSize !== undefined && !(Number.isInteger(options.pageSize) && options.pageSize >= 0)) {
    throw new ServeOptionsError('--page-size must be a whole number, 0 or more');
  }
  // The SDK and fastmcp flavors have their own auth models; sign-in is the native server's.
  if (options.oauth && flavor !== 'native')
    throw new ServeOptionsError(
      `--oauth-issuer is served by the native flavor only; drop --flavor ${flavor}`,
    );
  // Every spec is read whatever the transport, so a bad one (an empty env: variable) stops start-up
  // over stdio too, where tokens are then ignored.
  const specs = options.authTokens ?? [];
  const tokens = specs.length > 0 ? TokenAuth.fromSpecs(specs) : undefined;
  return { flavor, auth: transport === 'stdio' ? undefined : tokens };
}

function describeUrl(host: string, port: number, path: string): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}${path}`;
}

/**
 * Serve until the input ends (stdio), a signal arrives or `options.signal` aborts. The vault is
 * saved on the way out in every case.
 */
/** The readiness probe of the shared state: a PING within the command timeout. */
function redisCheck(state: RedisSharedState): DependencyChecks {
  return async () => {
    const health = await state.health();
    return {
      redis: health.ok
        ? { ok: true, ...(health.latencyMs !== undefined ? { latency_ms: health.latencyMs } : {}) }
        : { ok: false, ...(health.error ? { error: health.error } : {}) },
    };
  };
}

/** The HTTP options that share sessions, changes and tasks through Redis. */
function sharedServing(server: ServerLayer): {
  sessions: RedisSessionStore;
  legacySseRelay: RedisLegacySseRelay;
  changes: RedisChangeFanout;
  taskStore: RedisTaskStore;
  taskRelay: RedisTaskRelay;
} {
  const state = server.sharedState as RedisSharedState;
  // Task results name real assets under most profiles: sealed with the vault key, like the
  // workspace log, sessions and changes (sealed by createLayerFromOptions, which has already
  // refused a random key).
  const tasks = state.tasks(vaultSealer(server.policy));
  state.changes.onError = (error) =>
    server.layer.logger.warn({ err: error }, 'change not spread to the other replicas');
  // The fan-out carries each workspace change from the replica that made it: the others apply
  // it without announcing it again.
  if (server.sharedWorkspace) server.sharedWorkspace.announceReplayed = false;
  return {
    sessions: state.sessions,
    // `--transport sse`: a POST reaching another replica than the session's stream is sent there.
    legacySseRelay: state.legacySse,
    changes: state.changes,
    taskStore: tasks.store,
    taskRelay: tasks.relay,
  };
}

export async function serve(server: ServerLayer, options: ServeOptions = {}): Promise<void> {
  const { flavor, auth } = checkServeOptions(options);
  const announce = options.announce ?? ((line: string) => process.stderr.write(`${line}\n`));
  const transport = options.transport ?? 'stdio';
  server.layer.logger.level = PINO_LEVELS[(options.logLevel ?? 'WARNING').toUpperCase()] ?? 'warn';

  const stop = new AbortController();
  const onAbort = () => stop.abort();
  let signalled = false;
  const onSignal = () => {
    signalled = true;
    stop.abort();
  };
  const handleSignals = options.handleSignals ?? true;
  if (handleSignals) {
    // `on`, not `once`: a second signal while shutting down (a terminal's Ctrl-C reaches both a
    // relaunching launcher and this process, and the launcher passes it on) must not kill the
    // process before the vault is saved.
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
  }
  const external = options.signal;
  if (external) {
    if (external.aborted) stop.abort();
    else external.addEventListener('abort', onAbort, { once: true });
  }
  const stopped = new Promise<void>((resolve) =>
    stop.signal.addEventListener('abort', () => resolve(), { once: true }),
  );

  try {
    if (flavor === 'sdk' || flavor === 'fastmcp') {
      // The SDK and fastmcp answer lists in one page and have no health, readiness or metrics
      // endpoints. The CLI always passes its default page size, so only a size someone chose is
      // worth a note.
      if (options.pageSize !== undefined && options.pageSize !== 100)
        announce(`Note: --page-size is not applied by the ${flavor} flavor (lists come in one page)`);
      if (options.tracing)
        announce(`Note: --traces is not applied by the ${flavor} flavor (no spans are recorded)`);
      const host = options.host ?? '127.0.0.1';
      const path = options.path ?? '/mcp';
      if (transport !== 'stdio' && !auth && !isLoopbackAddress(host)) {
        announce(
          `Warning: listening on ${host} without --auth-token: anyone who can reach this address can call every tool the policy allows`,
        );
      }
      const serveFlavor = flavor === 'sdk' ? serveSdk : serveFastmcp;
      await serveFlavor(server.layer, {
        transport: transport === 'stdio' ? 'stdio' : 'http',
        host,
        port: options.port ?? 8765,
        path,
        ...(auth ? { auth } : {}),
        ...(options.allowedOrigins?.length ? { allowedOrigins: options.allowedOrigins } : {}),
        ...(options.allowedHosts?.length ? { allowedHosts: options.allowedHosts } : {}),
        ...(options.jsonResponse ? { jsonResponse: true } : {}),
        ...(options.stdioFd !== undefined ? { stdoutFd: options.stdioFd } : {}),
        stop: stop.signal,
        onListening: (bound) => {
          const url = describeUrl(bound.host, bound.port, path);
          announce(`cloudg MCP server (${flavor}, http) listening on ${url}`);
          options.onListening?.({ host: bound.host, port: bound.port, url });
        },
      });
      return;
    }
    if (transport === 'stdio') {
      // Stopping ends input; the requests already read finish within the grace period.
      await serveStdio(server.layer as never, {
        signal: stop.signal,
        ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
        ...(options.stdioFd !== undefined ? { stdoutFd: options.stdioFd } : {}),
        ...(options.tracing ? { tracing: options.tracing } : {}),
        ...(options.clientRoots
          ? {
              clientRoots: (uris: string[]) => {
                const roots = server.workspace.useClientRoots(uris);
                server.layer.logger.info({ roots }, 'allowed roots from the client');
              },
            }
          : {}),
      });
      return;
    }
    const host = options.host ?? '127.0.0.1';
    const path = options.path ?? '/mcp';
    if (!auth && !options.oauth && !isLoopbackAddress(host)) {
      announce(
        `Warning: listening on ${host} without --auth-token: anyone who can reach this address can call every tool the policy allows`,
      );
    }
    const running = await serveHttp(server.layer as never, {
      host,
      port: options.port ?? 8765,
      path,
      transport: transport === 'sse' ? 'sse' : 'http',
      ...(auth ? { auth } : {}),
      ...(options.oauth ? { oauth: options.oauth } : {}),
      ...(options.allowedOrigins?.length ? { allowedOrigins: [...options.allowedOrigins] } : {}),
      ...(options.allowedHosts?.length ? { allowedHosts: [...options.allowedHosts] } : {}),
      ...(options.corsOrigins?.length ? { corsOrigins: [...options.corsOrigins] } : {}),
      ...(options.jsonResponse ? { jsonResponse: true } : {}),
      ...(options.stateless ? { stateless: true } : {}),
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      ...(options.tracing ? { tracing: options.tracing } : {}),
      // `/metrics` and `/readyz`: the layer is built and its datasets loaded before serving starts.
      metrics: { registry: server.prometheus(), public: options.publicMetrics ?? false },
      // With shared state, a replica that cannot reach Redis is alive but not ready.
      ...(server.sharedState ? { dependencies: redisCheck(server.sharedState) } : {}),
      // Sessions and tasks continue on any replica, and a change made on one is announced by all.
      ...(server.sharedState ? sharedServing(server) : {}),
    });
    const url = describeUrl(running.host, running.port, path);
    announce(
      `cloudg MCP server (${flavor}, ${transport === 'streamable-http' ? 'http' : transport}) listening on ${url}`,
    );
    if (options.oauth) {
      // The resource is what tokens must be issued for: an operator checks it against the
      // identity provider's audience here, before the first client fails to sign in.
      announce(
        `Sign-in: access tokens from ${options.oauth.issuer} for the resource ${options.oauth.resource ?? url}`,
      );
      // Clients name the URL they reach, which is never this bind address.
      if (!options.oauth.resource && !isLoopbackAddress(host))
        announce(
          `Warning: --oauth-resource is not set, so tokens must name ${url}; set it to the URL clients use`,
        );
    }
    options.onListening?.({ host: running.host, port: running.port, url });
    await stopped;
    await running.close();
  } finally {
    // After a signal the process is on its way out: the handlers stay, so a repeated signal that
    // arrives after serving ended (while the vault is saved, or before the event loop drains)
    // still finds them instead of Node's default, which would kill the process mid-exit. Signal
    // handlers do not keep the event loop alive. Serving that ended otherwise (end of input,
    // `options.signal`) gives the signals back, since the process may go on.
    if (handleSignals && !signalled) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
    }
    external?.removeEventListener('abort', onAbort);
    try {
      const saved = server.close();
      if (saved) server.layer.logger.info({ path: saved }, 'pseudonym vault saved');
    } catch (error) {
      server.layer.logger.error({ err: error }, 'could not save the pseudonym vault');
    }
    await server.closeShared();
  }
}
