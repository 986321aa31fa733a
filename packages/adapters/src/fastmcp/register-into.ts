/**
 * `registerInto(server, layer, options)` for a `FastMCP` server of the npm `fastmcp` package (4.x):
 * the layer's tools, resources, templates, prompts and completions on every session of the
 * server, beside the host's own fastmcp tools, resources and prompts (MCP.md 8.5, 8.7, 8.8, 8.10).
 *
 * fastmcp builds one 1.x SDK server per session and announces it with its `connect` event; the
 * binding installs cloudg's handlers on each (see mount-session.ts). Over fastmcp's HTTP stream the
 * event comes before the session's first request. `FastMCP.connect(transport)` and fastmcp's stdio
 * `start` announce the session only after the handshake, so the binding wraps both methods on this
 * instance: the transport is gated (handshake-gate.ts) until the handlers are in place. Only types
 * are imported from fastmcp; the server object the user hands over brings the runtime.
 */
import { type Layer, LayerConfigError } from '@cloudg/core';
import type { PrincipalResolver } from '@cloudg/transports';
import type { FastMCP, FastMCPSession, FastMCPSessionAuth } from 'fastmcp';
import { capabilitiesFor, type IncludeKind, includeSet } from '../sdk/include-kinds.js';
import { HandshakeGate, type WrappedTransport } from './handshake-gate.js';
import { mountSession, type SessionMountContext } from './mount-session.js';
import { sdk1StdioTransport } from './sdk1-schemas.js';

export interface FastMCPRegisterOptions {
  /** Must equal the layer's prefix when given: the prefix belongs to the layer (see the SDK adapter). */
  prefix?: string;
  /** What to register; default all. */
  include?: Iterable<IncludeKind>;
  /**
   * Who is calling (8.8). `info.principal` is the principal of the session's fastmcp auth (what
   * `authenticate` returned: a `Principal`, or an object with one under `PRINCIPAL_AUTH_KEY`);
   * `info.raw.auth` is the auth object itself. `null` or a throw falls back to the default resolver.
   */
  principalResolver?: PrincipalResolver;
  /** Advertise `listChanged` for tools, resources and prompts. Default true. */
  listChanged?: boolean;
}

type AnySession = FastMCPSession<FastMCPSessionAuth>;
type AnyFastMCP = FastMCP<FastMCPSessionAuth>;

/** What `registerInto` installed; `dispose()` stops mounting new sessions and forwarding changes. */
export interface FastMCPBinding {
  readonly server: AnyFastMCP;
  readonly include: ReadonlySet<IncludeKind>;
  dispose(): void;
}

const LEVEL_CHANGES = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
} as const;

function ignore(): void {}

/** The transport fastmcp's `start` would choose: the option, its `--transport` argument, FASTMCP_TRANSPORT, stdio. */
function startTransport(options: Parameters<AnyFastMCP['start']>[0]): string {
  if (options?.transportType) return options.transportType;
  const args = process.argv.slice(2);
  const index = args.indexOf('--transport');
  const arg = index !== -1 ? args[index + 1] : undefined;
  if (arg) return arg === 'http-stream' ? 'httpStream' : arg;
  return process.env.FASTMCP_TRANSPORT || 'stdio';
}

/** The auth fastmcp's stdio `start` gives its session: `authenticate(undefined)`, failures logged. */
async function stdioAuth(fastmcp: AnyFastMCP, layer: Layer<unknown>): Promise<FastMCPSessionAuth> {
  const { authenticate, auth } = fastmcp.options;
  const run =
    authenticate ?? (auth ? (request: undefined) => auth.authenticate(request as never) : undefined);
  if (!run) return undefined;
  try {
    return ((await run(undefined as never)) ?? undefined) as FastMCPSessionAuth;
  } catch (error) {
    layer.logger.error({ err: error }, 'fastmcp authentication failed for stdio');
    return undefined;
  }
}

function isFastMCP(value: unknown): value is AnyFastMCP {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { addTool?: unknown }).addTool === 'function' &&
    typeof (value as { connect?: unknown }).connect === 'function' &&
    typeof (value as { on?: unknown }).on === 'function' &&
    Array.isArray((value as { sessions?: unknown }).sessions)
  );
}

export function registerInto<TAuth extends FastMCPSessionAuth, TApp>(
  server: FastMCP<TAuth>,
  layer: Layer<TApp>,
  options: FastMCPRegisterOptions = {},
): FastMCPBinding {
  const fastmcp = server as unknown as AnyFastMCP;
  if (!isFastMCP(fastmcp))
    throw new TypeError('registerInto expects a FastMCP server from the fastmcp package 4.x');
  const base = layer as Layer<unknown>;
  if (options.prefix !== undefined && options.prefix !== base.prefix) {
    throw new LayerConfigError(
      'The prefix belongs to the layer: build the layer with this prefix (one layer per prefix) instead of changing it when mounting',
      'prefix',
    );
  }
  const include = includeSet(options.include);
  const capabilities = capabilitiesFor(include, options.listChanged ?? true);
  const warned = new Set<string>();
  const ctx: SessionMountContext = {
    layer: base,
    include,
    capabilities,
    principalResolver: options.principalResolver,
    subscriptions: new WeakMap(),
    warnCollision: (kind, key) => {
      if (warned.has(`${kind}\u0000${key}`)) return;
      warned.add(`${kind}\u0000${key}`);
      base.logger.warn({ kind, key }, 'the host already defines this name; the host keeps it');
    },
  };

  // The session's fastmcp auth: given to `connect`, then whatever fastmcp's HTTP stream passes to
  // `updateAuth` before each request.
  const auths = new WeakMap<AnySession, unknown>();
  const mounted = new WeakSet<AnySession>();
  const sessions = new Set<WeakRef<AnySession>>();
  const mount = (session: AnySession) => {
    if (mounted.has(session)) return;
    mounted.add(session);
    const updateAuth = session.updateAuth.bind(session);
    session.updateAuth = (auth) => {
      auths.set(session, auth);
      updateAuth(auth);
    };
    mountSession(session, ctx, () => auths.get(session));
    sessions.add(new WeakRef(session));
  };

  const onConnect = ({ session }: { session: AnySession }) => mount(session);
  fastmcp.on('connect', onConnect);
  for (const session of fastmcp.sessions) mount(session);

  const originalConnect = fastmcp.connect;
  fastmcp.connect = async (transport, auth) => {
    const gate = new HandshakeGate(transport as unknown as WrappedTransport, capabilities);
    const session = await originalConnect.call(fastmcp, gate as unknown as typeof transport, auth);
    if (auth !== undefined) auths.set(session, auth);
    mount(session);
    gate.release();
    return session;
  };

  // fastmcp's stdio `start` makes its transport and announces the session only after the
  // handshake, so a client's first request (measured: every time) saw the host's tools alone. Over
  // stdio, `start` goes through the gated `connect` instead, with the same transport and auth.
  const originalStart = fastmcp.start;
  fastmcp.start = async (startOptions) => {
    if (startTransport(startOptions) !== 'stdio') return originalStart.call(fastmcp, startOptions);
    const transport = sdk1StdioTransport() as WrappedTransport;
    const session = await fastmcp.connect(transport as never, await stdioAuth(fastmcp, base));
    const onEnd = () => {
      process.stdin.off('end', onEnd);
      process.stdin.off('close', onEnd);
      session.close().catch(ignore);
    };
    process.stdin.on('end', onEnd);
    process.stdin.on('close', onEnd);
  };

  // Change events (8.10): list changes to every live session, a resource update to the sessions
  // that subscribed to its (real) URI. fastmcp's own senders would need its component lists.
  const stopChanges = base.onChange((kind, uri) => {
    for (const ref of sessions) {
      const session = ref.deref();
      if (!session) {
        sessions.delete(ref);
        continue;
      }
      const live = session.server;
      if (!live.transport) continue;
      if (kind === 'resource') {
        // Under the URI the client subscribed with, never the real one it may not see.
        const sent = uri === undefined ? undefined : ctx.subscriptions.get(session)?.get(uri);
        for (const subscribedAs of sent ?? []) live.sendResourceUpdated({ uri: subscribedAs }).catch(ignore);
        continue;
      }
      const included =
        kind === 'resources' ? include.has('resources') || include.has('templates') : include.has(kind);
      if (included) live.notification({ method: LEVEL_CHANGES[kind] }).catch(ignore);
    }
  });

  return {
    server: fastmcp,
    include,
    dispose: () => {
      stopChanges();
      fastmcp.off('connect', onConnect);
      fastmcp.connect = originalConnect;
      fastmcp.start = originalStart;
    },
  };
}
