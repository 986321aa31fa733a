/**
 * `registerInto(server, layer, options)`: a layer's tools, resources, templates, prompts and
 * completions inside an `McpServer` or a low-level `Server` of `@modelcontextprotocol/server` 2.x
 * (MCP.md 8.1, 8.2, 8.4, 8.7, 8.8, 8.10).
 *
 * The binding wraps the server's request handlers in place: lists are the host's entries followed
 * by cloudg's (a name or URI the host already has keeps the host's version, with a warning),
 * requests for what cloudg owns go to the layer with the principal resolved for that request, and
 * everything else goes to the host's handler. Only types are imported from the SDK: the server
 * object the user hands over brings the runtime, so the SDK stays an optional peer dependency.
 */
import { type JsonObject, type Layer, LayerConfigError, type Principal } from '@cloudg/core';
import { type PrincipalResolver, resolvePrincipal } from '@cloudg/transports';
import type { McpServer, Server, ServerContext } from '@modelcontextprotocol/server';
import { LAYER_METHODS, type McpMethod } from '../export/layer-methods.js';
import { capabilitiesFor, type IncludeKind, includeSet } from './include-kinds.js';
import { notifyConnectedClient } from './notify-connected.js';
import { requestInfoFrom } from './request-info.js';
import { sdkCallOptions } from './sdk-call-options.js';
import { toSdkError } from './sdk-errors.js';

export interface RegisterOptions {
  /**
   * The prefix of the exposed tool and prompt names. It belongs to the layer (`new Layer({ prefix })`),
   * so that one layer mounted twice cannot end up with the other mount's names; given here, it
   * must equal the layer's (MCP.md 8.7 lets a mount change a shared layer's prefix, which silently
   * renamed the tools of every other mount of that layer: fixed by refusing it).
   */
  prefix?: string;
  /** What to register; default all. */
  include?: Iterable<IncludeKind>;
  /** Who is calling, from the request (8.8); `null` or a throw falls back to the default resolver. */
  principalResolver?: PrincipalResolver;
  /** Advertise `listChanged` for tools, resources and prompts. Default true. */
  listChanged?: boolean;
  /**
   * Send the layer's change events to this server's connected client. Default true; false when
   * something else forwards them (`createSdkHttpHandler` publishes on its handler's event bus).
   */
  forwardChanges?: boolean;
}

/** What `registerInto` installed; `dispose()` stops forwarding the layer's change events. */
export interface SdkBinding {
  readonly server: Server;
  readonly include: ReadonlySet<IncludeKind>;
  dispose(): void;
}

interface WireRequest {
  method: string;
  params?: Record<string, unknown>;
}
type StoredHandler = (request: WireRequest, ctx: ServerContext) => Promise<Record<string, unknown>>;

/** The two request-handler seams the binding uses (`_getRequestHandler` is the SDK's protected accessor). */
interface HandlerTable {
  setRequestHandler(method: string, handler: StoredHandler): void;
  _getRequestHandler?: (method: string) => StoredHandler | undefined;
}

const LIST_FIELDS = {
  'tools/list': ['tools', 'name', 'tools'],
  'resources/list': ['resources', 'uri', 'resources'],
  'resources/templates/list': ['resourceTemplates', 'uriTemplate', 'templates'],
  'prompts/list': ['prompts', 'name', 'prompts'],
} as const;
type ListMethod = keyof typeof LIST_FIELDS;

function isMcpServer(value: unknown): value is McpServer {
  return (
    typeof value === 'object' &&
    value !== null &&
    'server' in value &&
    typeof (value as { registerTool?: unknown }).registerTool === 'function'
  );
}

function isLowLevelServer(value: unknown): value is Server {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { setRequestHandler?: unknown }).setRequestHandler === 'function' &&
    typeof (value as { registerCapabilities?: unknown }).registerCapabilities === 'function'
  );
}

/** The low-level server behind what the user passed, or a TypeError naming what is accepted. */
export function lowLevelServerOf(server: McpServer | Server): Server {
  if (isMcpServer(server)) return server.server;
  if (isLowLevelServer(server)) return server;
  throw new TypeError('registerInto expects an McpServer or a Server from @modelcontextprotocol/server 2.x');
}

function checkPrefix(layer: Layer<unknown>, prefix: string | undefined): void {
  if (prefix === undefined || prefix === layer.prefix) return;
  throw new LayerConfigError(
    'The prefix belongs to the layer: build the layer with this prefix (one layer per prefix) instead of changing it when mounting',
    'prefix',
  );
}

/** 2026-07-28 and later: the era in which a missing resource is -32602 rather than -32002. */
function isModern(server: Server, ctx: ServerContext): boolean {
  const version = server.getNegotiatedProtocolVersion();
  if (version !== undefined) return version >= '2026-07-28';
  return ctx.mcpReq.envelope !== undefined && Object.keys(ctx.mcpReq.envelope).length > 0;
}

function ignore(): void {}

export function registerInto<TApp>(
  server: McpServer | Server,
  layer: Layer<TApp>,
  options: RegisterOptions = {},
): SdkBinding {
  const base = layer as Layer<unknown>;
  const lowLevel = lowLevelServerOf(server);
  checkPrefix(base, options.prefix);
  const include = includeSet(options.include);
  const listChanged = options.listChanged ?? true;
  const table = lowLevel as unknown as HandlerTable;
  if (typeof table._getRequestHandler !== 'function') {
    throw new TypeError(
      'This @modelcontextprotocol/server has no _getRequestHandler: registerInto was checked with 2.4; pin that minor version',
    );
  }

  // Capabilities first: the SDK refuses a handler whose capability is not declared, and refuses
  // new capabilities once connected (so mount before `connect`).
  lowLevel.registerCapabilities(capabilitiesFor(include, listChanged));

  // Names and URIs the host serves itself: seeded from an McpServer's registrations, then kept
  // current from every host list answer.
  const hostKeys = {
    tools: new Set<string>(),
    resources: new Set<string>(),
    templates: new Set<string>(),
    prompts: new Set<string>(),
  };
  if (isMcpServer(server)) {
    const registered = server as unknown as Record<string, Record<string, unknown> | undefined>;
    for (const name of Object.keys(registered._registeredTools ?? {})) hostKeys.tools.add(name);
    for (const name of Object.keys(registered._registeredPrompts ?? {})) hostKeys.prompts.add(name);
    for (const uri of Object.keys(registered._registeredResources ?? {})) hostKeys.resources.add(uri);
  }
  const warned = new Set<string>();
  const warnCollision = (kind: string, key: string) => {
    if (warned.has(`${kind}\u0000${key}`)) return;
    warned.add(`${kind}\u0000${key}`);
    base.logger.warn({ kind, key }, 'the host already defines this name; the host keeps it');
  };

  const registry = base.registry;
  const ownsTool = (name: string) => !hostKeys.tools.has(name) && registry.tools.has(base.internalName(name));
  const ownsPrompt = (name: string) =>
    !hostKeys.prompts.has(name) && registry.prompts.has(base.internalName(name));
  const ownsResource = (uri: string) =>
    !hostKeys.resources.has(uri) && (registry.resources.has(uri) || registry.findTemplate(uri) !== undefined);
  const ownsTemplate = (uriTemplate: string) =>
    !hostKeys.templates.has(uriTemplate) && registry.templates.has(uriTemplate);

  const principalFor = (ctx: ServerContext): Promise<Principal> =>
    resolvePrincipal(options.principalResolver, requestInfoFrom(lowLevel, ctx), (error) =>
      base.logger.warn({ err: error }, 'principal resolver failed; using the default'),
    );

  const callLayer = async (method: McpMethod, request: WireRequest, ctx: ServerContext) => {
    const params = request.params ?? {};
    try {
      const principal = await principalFor(ctx);
      return (await LAYER_METHODS[method](base, params, sdkCallOptions(ctx, principal))) as Record<
        string,
        unknown
      >;
    } catch (error) {
      throw toSdkError(error, method, isModern(lowLevel, ctx), params, base.logger);
    }
  };

  const install = (method: string, make: (orig: StoredHandler | undefined) => StoredHandler) => {
    const orig = table._getRequestHandler?.call(lowLevel, method);
    table.setRequestHandler(method, make(orig));
  };

  const listHandler =
    (method: ListMethod) =>
    (orig: StoredHandler | undefined): StoredHandler =>
    async (request, ctx) => {
      const [field, key, kind] = LIST_FIELDS[method];
      let hostResult: Record<string, unknown> = {};
      let hostItems: unknown[] = [];
      if (orig) {
        hostResult = await orig(request, ctx);
        hostItems = Array.isArray(hostResult[field]) ? (hostResult[field] as unknown[]) : [];
        for (const item of hostItems) {
          const value = (item as Record<string, unknown>)[key];
          if (typeof value === 'string') hostKeys[kind].add(value);
        }
        // cloudg's entries follow the host's last page.
        if (hostResult.nextCursor !== undefined) return hostResult;
      }
      const mine = ((await callLayer(method, { method, params: {} }, ctx))[field] as JsonObject[]).filter(
        (entry) => {
          const value = String(entry[key]);
          if (!hostKeys[kind].has(value)) return true;
          warnCollision(kind, value);
          return false;
        },
      );
      return { ...hostResult, [field]: [...hostItems, ...mine] };
    };

  const routed =
    (method: McpMethod, owns: (params: Record<string, unknown>) => boolean) =>
    (orig: StoredHandler | undefined): StoredHandler =>
    async (request, ctx) => {
      const params = request.params ?? {};
      // Not ours and the host has a handler: the host answers. Not ours and no host handler: the
      // layer answers, which gives the native server's unknown-name error (with close matches).
      if (orig && !owns(params)) return orig(request, ctx);
      return callLayer(method, request, ctx);
    };

  const str = (value: unknown) => (typeof value === 'string' ? value : '');

  if (include.has('tools')) {
    install('tools/list', listHandler('tools/list'));
    install(
      'tools/call',
      routed('tools/call', (p) => ownsTool(str(p.name))),
    );
  }
  if (include.has('resources')) {
    install('resources/list', listHandler('resources/list'));
    install(
      'resources/read',
      routed('resources/read', (p) => ownsResource(str(p.uri))),
    );
  }
  if (include.has('templates')) install('resources/templates/list', listHandler('resources/templates/list'));
  if (include.has('prompts')) {
    install('prompts/list', listHandler('prompts/list'));
    install(
      'prompts/get',
      routed('prompts/get', (p) => ownsPrompt(str(p.name))),
    );
  }
  if (include.has('completions')) {
    install('completion/complete', (orig) => {
      const owns = (p: Record<string, unknown>) => {
        const ref = (p.ref ?? {}) as Record<string, unknown>;
        if (ref.type === 'ref/prompt') return ownsPrompt(str(ref.name));
        if (ref.type === 'ref/resource') return ownsTemplate(str(ref.uri)) || ownsResource(str(ref.uri));
        return false;
      };
      const inner = routed('completion/complete', owns)(orig);
      // Neither ours nor a host handler: an empty completion, as a server without that argument gives.
      return async (request, ctx) => {
        if (!orig && !owns(request.params ?? {})) {
          return { completion: { values: [], total: 0, hasMore: false } };
        }
        return inner(request, ctx);
      };
    });
  }

  // Subscriptions (handshake era): recorded under the real URI, which is what change events carry,
  // with the URIs the client subscribed with, under which it is told (never the real one it may
  // not have been shown).
  const subscribed = new Map<string, Set<string>>();
  if (include.has('subscriptions') && (include.has('resources') || include.has('templates'))) {
    for (const method of ['resources/subscribe', 'resources/unsubscribe'] as const) {
      install(method, (orig) => async (request, ctx) => {
        const uri = str(request.params?.uri);
        if (ownsResource(uri)) {
          const real = await base.realResourceUri(uri, await principalFor(ctx));
          const sent = subscribed.get(real) ?? new Set<string>();
          if (method === 'resources/subscribe') sent.add(uri);
          else sent.delete(uri);
          if (sent.size > 0) subscribed.set(real, sent);
          else subscribed.delete(real);
        }
        return orig ? orig(request, ctx) : {};
      });
    }
  }

  const stop =
    (options.forwardChanges ?? true) ? notifyConnectedClient(base, lowLevel, include, subscribed) : ignore;

  return {
    server: lowLevel,
    include,
    dispose: () => stop(),
  };
}
