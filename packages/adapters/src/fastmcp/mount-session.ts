/**
 * cloudg on one fastmcp session: request handlers installed on the session's 1.x SDK server
 * (`session.server`), in front of fastmcp's own. fastmcp's component API would reshape what cloudg
 * sends (it rebuilds every list entry from a few fields, adds `additionalProperties: false` to input
 * schemas, re-parses tool results through strict schemas and renames errors), so cloudg answers at
 * the SDK level instead, with the layer's wire definitions and results unchanged. The host's own
 * fastmcp tools, resources and prompts keep working: lists are the host's entries followed by
 * cloudg's, and what the host serves goes to fastmcp's handler.
 */
import { type JsonObject, type Layer, type LogLevel, Principal } from '@cloudg/core';
import { type PrincipalResolver, RequestInfo, resolvePrincipal } from '@cloudg/transports';
import type { FastMCPSession, FastMCPSessionAuth } from 'fastmcp';
import { type DispatchOptions, LAYER_METHODS, type McpMethod } from '../export/layer-methods.js';
import type { IncludeKind } from '../sdk/include-kinds.js';
import { toSdkError } from '../sdk/sdk-errors.js';
import { type Sdk1Method, sdk1Schema } from './sdk1-schemas.js';

/** The key of a fastmcp auth object (what `authenticate` returns) under which a cloudg `Principal` may sit. */
export const PRINCIPAL_AUTH_KEY = 'cloudg.principal';

interface WireRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** What the 1.x SDK hands a request handler (the fields cloudg reads). */
export interface Sdk1Extra {
  signal: AbortSignal;
  requestId: string | number;
  sessionId?: string;
  authInfo?: { clientId: string; scopes: string[]; extra?: Record<string, unknown> };
  requestInfo?: { headers?: Record<string, string | string[] | undefined> };
  sendNotification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
}

type StoredHandler = (request: WireRequest, extra: Sdk1Extra) => Promise<Record<string, unknown>>;

/** The 1.x server's handler table (the SDK keeps it in `_requestHandlers`; 1.x has no accessor). */
interface Sdk1Server {
  setRequestHandler(schema: unknown, handler: StoredHandler): void;
  getCapabilities(): Record<string, unknown>;
  getClientVersion(): Record<string, unknown> | undefined;
  _requestHandlers?: Map<string, StoredHandler>;
}

/** Everything a session mount needs from its binding. */
export interface SessionMountContext {
  layer: Layer<unknown>;
  include: ReadonlySet<IncludeKind>;
  capabilities: Record<string, Record<string, boolean>>;
  principalResolver: PrincipalResolver | undefined;
  /**
   * Each session's subscriptions: the real URI (what the layer's change events carry) to the URIs
   * the client subscribed with (pseudonymised under a pseudonymising policy), which are the ones
   * it is notified under, so an update never shows the real identifier.
   */
  subscriptions: WeakMap<FastMCPSession<FastMCPSessionAuth>, Map<string, Set<string>>>;
  warnCollision(kind: string, key: string): void;
}

const LIST_FIELDS = {
  'tools/list': ['tools', 'name'],
  'resources/list': ['resources', 'uri'],
  'resources/templates/list': ['resourceTemplates', 'uriTemplate'],
  'prompts/list': ['prompts', 'name'],
} as const;
type ListMethod = keyof typeof LIST_FIELDS;

/** The order of MCP log levels, to apply the level the client set with `logging/setLevel`. */
const LEVELS: readonly string[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

function ignore(): void {}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The principal a fastmcp auth object carries: itself, or one under `PRINCIPAL_AUTH_KEY`. */
export function principalOfAuth(auth: unknown): Principal | undefined {
  if (auth instanceof Principal) return auth;
  if (typeof auth === 'object' && auth !== null) {
    const stored = (auth as Record<string, unknown>)[PRINCIPAL_AUTH_KEY];
    if (stored instanceof Principal) return stored;
  }
  return undefined;
}

function requestInfoFor(
  session: FastMCPSession<FastMCPSessionAuth>,
  server: Sdk1Server,
  extra: Sdk1Extra,
  auth: unknown,
): RequestInfo {
  const headers = extra.requestInfo?.headers;
  const clientInfo = server.getClientVersion();
  const authInfo = extra.authInfo;
  const fromAuthInfo = authInfo?.extra?.[PRINCIPAL_AUTH_KEY];
  const principal = principalOfAuth(auth) ?? (fromAuthInfo instanceof Principal ? fromAuthInfo : undefined);
  return new RequestInfo({
    // Headers mean an HTTP request; without them the host chose a stream (stdio, in memory).
    transport: headers ? 'http' : 'stdio',
    headers: headers ?? {},
    ...((extra.sessionId ?? session.sessionId) ? { sessionId: extra.sessionId ?? session.sessionId } : {}),
    ...(clientInfo ? { clientInfo: { ...clientInfo } } : {}),
    ...(authInfo ? { accessToken: { clientId: authInfo.clientId, scopes: [...authInfo.scopes] } } : {}),
    ...(principal ? { principal } : {}),
    raw: { session, extra, auth },
  });
}

/** Install cloudg on `session`'s server. `authOf` gives the session's current fastmcp auth. */
export function mountSession(
  session: FastMCPSession<FastMCPSessionAuth>,
  ctx: SessionMountContext,
  authOf: () => unknown,
): void {
  const { layer, include } = ctx;
  const server = session.server as unknown as Sdk1Server;
  const table = server._requestHandlers;
  if (!(table instanceof Map)) {
    throw new TypeError(
      "This fastmcp's SDK server has no _requestHandlers: registerInto was checked with fastmcp 4.20 on SDK 1.x",
    );
  }
  // The SDK refuses a handler whose capability is not declared, and after connecting refuses
  // `registerCapabilities`; the object it answers `initialize` with is the one it checks, so
  // cloudg's capabilities are added to it in place.
  const declared = server.getCapabilities() as Record<string, Record<string, unknown>>;
  for (const [key, value] of Object.entries(ctx.capabilities)) declared[key] = { ...declared[key], ...value };

  const hostKeys = {
    'tools/list': new Set<string>(),
    'resources/list': new Set<string>(),
    'resources/templates/list': new Set<string>(),
    'prompts/list': new Set<string>(),
  };
  const registry = layer.registry;
  // Resources are the one kind routed by what cloudg serves: a URI may match a host's template.
  const ownsResource = (uri: string) =>
    !hostKeys['resources/list'].has(uri) &&
    (registry.resources.has(uri) || registry.findTemplate(uri) !== undefined);

  const principalFor = (extra: Sdk1Extra): Promise<Principal> =>
    resolvePrincipal(ctx.principalResolver, requestInfoFor(session, server, extra, authOf()), (error) =>
      layer.logger.warn({ err: error }, 'principal resolver failed; using the default'),
    );

  const callOptions = (extra: Sdk1Extra, principal: Principal, request: WireRequest): DispatchOptions => {
    const token = (request.params?._meta as Record<string, unknown> | undefined)?.progressToken;
    const options: DispatchOptions = {
      principal,
      signal: extra.signal,
      requestId: extra.requestId,
      // fastmcp keeps the level a client sets (`logging/setLevel`) on the session, not in the SDK.
      onLog: (level: LogLevel, data, logger) => {
        if (LEVELS.indexOf(level) < LEVELS.indexOf(session.loggingLevel)) return;
        const params: Record<string, unknown> = { level, data };
        if (logger !== undefined) params.logger = logger;
        extra.sendNotification({ method: 'notifications/message', params }).catch(ignore);
      },
    };
    if (typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token))) {
      options.onProgress = (progress, total, message) => {
        const params: Record<string, unknown> = { progressToken: token, progress };
        if (total !== undefined) params.total = total;
        if (message !== undefined) params.message = message;
        extra.sendNotification({ method: 'notifications/progress', params }).catch(ignore);
      };
    }
    return options;
  };

  const callLayer = async (method: McpMethod, request: WireRequest, extra: Sdk1Extra) => {
    const params = request.params ?? {};
    try {
      const principal = await principalFor(extra);
      return (await LAYER_METHODS[method](layer, params, callOptions(extra, principal, request))) as Record<
        string,
        unknown
      >;
    } catch (error) {
      // The handshake era's codes: a missing resource is -32002, which the 1.x SDK passes on as is.
      throw toSdkError(error, method, false, params, layer.logger);
    }
  };

  // What cloudg installed per method (the table's entry, which the SDK wraps around the handler
  // given), with the fastmcp handler it stands in front of.
  const installed = new Map<string, { entry: StoredHandler | undefined; orig: StoredHandler | undefined }>();
  const hostHandler = (method: string): StoredHandler | undefined => {
    const current = table.get(method);
    const mine = installed.get(method);
    return mine && current === mine.entry ? mine.orig : current;
  };
  const install = (method: Sdk1Method, make: (orig: StoredHandler | undefined) => StoredHandler) => {
    const orig = hostHandler(method);
    server.setRequestHandler(sdk1Schema(method), make(orig));
    installed.set(method, { entry: table.get(method), orig });
  };

  /** The names the host serves now, from fastmcp's own list (which fastmcp caches per session). */
  const refreshHost = async (method: ListMethod, extra: Sdk1Extra) => {
    const orig = hostHandler(method);
    if (!orig) return;
    const [field, key] = LIST_FIELDS[method];
    const result = await orig({ method, params: {} }, extra);
    hostKeys[method].clear();
    for (const item of Array.isArray(result[field]) ? (result[field] as unknown[]) : []) {
      const value = (item as Record<string, unknown>)[key];
      if (typeof value === 'string') hostKeys[method].add(value);
    }
  };

  const listHandler =
    (method: ListMethod) =>
    (orig: StoredHandler | undefined): StoredHandler =>
    async (request, extra) => {
      const [field, key] = LIST_FIELDS[method];
      let hostResult: Record<string, unknown> = {};
      let hostItems: unknown[] = [];
      if (orig) {
        hostResult = await orig(request, extra);
        hostItems = Array.isArray(hostResult[field]) ? (hostResult[field] as unknown[]) : [];
        hostKeys[method].clear();
        for (const item of hostItems) {
          const value = (item as Record<string, unknown>)[key];
          if (typeof value === 'string') hostKeys[method].add(value);
        }
        // cloudg's entries follow the host's last page.
        if (hostResult.nextCursor !== undefined) return hostResult;
      }
      const mine = ((await callLayer(method, { method, params: {} }, extra))[field] as JsonObject[]).filter(
        (entry) => {
          const value = String(entry[key]);
          if (!hostKeys[method].has(value)) return true;
          ctx.warnCollision(field, value);
          return false;
        },
      );
      return { ...hostResult, [field]: [...hostItems, ...mine] };
    };

  // The host answers for what it serves (by name, from its current lists); everything else goes to
  // the layer, so a name nobody serves gets the native server's error with close matches rather
  // than fastmcp's bare -32601.
  const routed =
    (method: McpMethod, hostLists: ListMethod[], hostServes: (params: Record<string, unknown>) => boolean) =>
    (orig: StoredHandler | undefined): StoredHandler =>
    async (request, extra) => {
      if (orig) {
        for (const list of hostLists) await refreshHost(list, extra);
        if (hostServes(request.params ?? {})) return orig(request, extra);
      }
      return callLayer(method, request, extra);
    };

  const subscribed = new Map<string, Set<string>>();
  const subscriptions =
    include.has('subscriptions') && (include.has('resources') || include.has('templates'));
  if (subscriptions) ctx.subscriptions.set(session, subscribed);

  const installAll = () => {
    if (include.has('tools')) {
      install('tools/list', listHandler('tools/list'));
      install(
        'tools/call',
        routed('tools/call', ['tools/list'], (p) => hostKeys['tools/list'].has(str(p.name))),
      );
    }
    if (include.has('resources')) {
      install('resources/list', listHandler('resources/list'));
      install(
        'resources/read',
        // A URI cloudg does not serve may still match one of the host's templates: the host's.
        routed('resources/read', ['resources/list'], (p) => !ownsResource(str(p.uri))),
      );
    }
    if (include.has('templates'))
      install('resources/templates/list', listHandler('resources/templates/list'));
    if (include.has('prompts')) {
      install('prompts/list', listHandler('prompts/list'));
      install(
        'prompts/get',
        routed('prompts/get', ['prompts/list'], (p) => hostKeys['prompts/list'].has(str(p.name))),
      );
    }
    if (include.has('completions')) {
      install('completion/complete', (orig) => {
        const hostServes = (p: Record<string, unknown>) => {
          const ref = (p.ref ?? {}) as Record<string, unknown>;
          if (ref.type === 'ref/prompt') return hostKeys['prompts/list'].has(str(ref.name));
          if (ref.type === 'ref/resource') return hostKeys['resources/templates/list'].has(str(ref.uri));
          return false;
        };
        return routed('completion/complete', ['prompts/list', 'resources/templates/list'], hostServes)(orig);
      });
    }
    if (subscriptions) {
      for (const method of ['resources/subscribe', 'resources/unsubscribe'] as const) {
        install(method, (orig) => async (request, extra) => {
          const uri = str(request.params?.uri);
          await refreshHost('resources/list', extra);
          if (!ownsResource(uri)) return orig ? orig(request, extra) : {};
          // Recorded under the real URI, which is what the layer's change events carry.
          const real = await layer.realResourceUri(uri, await principalFor(extra));
          const sent = subscribed.get(real) ?? new Set<string>();
          if (method === 'resources/subscribe') sent.add(uri);
          else sent.delete(uri);
          if (sent.size > 0) subscribed.set(real, sent);
          else subscribed.delete(real);
          return {};
        });
      }
    }
  };
  installAll();

  // When the host adds or removes a tool, resource or prompt while running, fastmcp installs its
  // handlers again on every session; cloudg's go back in front of them.
  const live = session as unknown as Record<string, unknown>;
  for (const name of [
    'toolsListChanged',
    'promptsListChanged',
    'resourcesListChanged',
    'resourceTemplatesListChanged',
  ]) {
    const original = live[name];
    if (typeof original !== 'function') continue;
    live[name] = (...args: unknown[]) => {
      const result: unknown = original.apply(session, args);
      installAll();
      return result;
    };
  }
}
