/**
 * The MCP methods, each a thin step from decoded params to a layer call and back to the wire.
 * Nothing here runs a handler or builds a schema: the layer does both.
 */
import {
  type CompletionRef,
  InvalidArgumentsError,
  normalizeLogLevel,
  resourceContentsToWire,
} from '@cloudg/core';
import { invalidParams } from '../jsonrpc/errors.js';
import { isObject } from '../jsonrpc/messages.js';
import { type ListKind, paginate } from '../paging/cursor.js';
import { callToolAsTask } from '../tasks/task-call.js';
import { legacyTaskMethods, modernTaskMethods } from '../tasks/task-methods.js';
import { serverCapabilities, serverInfo } from './capabilities.js';
import { withClientPort } from './client-requests.js';
import { listen } from './listen.js';
import { negotiateVersion } from './negotiate.js';
import { callOptions, type RequestContext } from './request-context.js';
import { LATEST_HANDSHAKE_VERSION, SUPPORTED_VERSIONS } from './versions.js';

export type MethodHandler = (
  rc: RequestContext,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

function requireString(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw invalidParams(`${key} must be a string`);
  return value;
}

function optionalObject(params: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw invalidParams(`${key} must be an object`);
  return value;
}

function listMethod(kind: ListKind, field: string, items: (rc: RequestContext) => unknown[]): MethodHandler {
  return (rc) => {
    const page = paginate(kind, items(rc), rc.params.cursor, rc.session.server.pageSize);
    const result: Record<string, unknown> = { [field]: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  };
}

/**
 * `tools/list`, with 2025-11-25's `execution.taskSupport` on the tools that may run as tasks. Only
 * there: 2026-07-28 removed the field (the server alone decides), and its clients refuse it.
 */
function toolsWithTaskSupport(rc: RequestContext): unknown[] {
  const { layer } = rc.session.server;
  const tools = layer.toolsWire(rc.principal);
  if (rc.era !== 'legacy' || rc.session.protocolVersion !== LATEST_HANDSHAKE_VERSION) return tools;
  return tools.map((tool) => {
    // Already filtered for the caller: the registry's spec is enough, without a second policy check.
    const support = layer.registry.tools.get(layer.internalName(String(tool.name)))?.taskSupport;
    return support === undefined || support === 'forbidden'
      ? tool
      : { ...tool, execution: { taskSupport: support } };
  });
}

const common: Record<string, MethodHandler> = {
  'tools/list': listMethod('tools', 'tools', (rc) => toolsWithTaskSupport(rc)),
  'resources/list': listMethod('resources', 'resources', (rc) =>
    rc.session.server.layer.resourcesWire(rc.principal),
  ),
  'resources/templates/list': listMethod('resourceTemplates', 'resourceTemplates', (rc) =>
    rc.session.server.layer.resourceTemplatesWire(rc.principal),
  ),
  'prompts/list': listMethod('prompts', 'prompts', (rc) => rc.session.server.layer.promptsWire(rc.principal)),

  'tools/call': async (rc) => {
    const name = requireString(rc.params, 'name');
    const args = optionalObject(rc.params, 'arguments');
    // A tool that may run as a task, for a caller that takes tasks, goes that way.
    const asTask = await callToolAsTask(rc, name, args);
    if (asTask !== undefined) return asTask;
    return withClientPort(rc, async () =>
      (await rc.session.server.layer.callTool(name, args, callOptions(rc))).toWire(),
    );
  },

  'resources/read': async (rc) => {
    const uri = requireString(rc.params, 'uri');
    return withClientPort(rc, async () => {
      const contents = await rc.session.server.layer.readResource(uri, callOptions(rc));
      return { contents: contents.map(resourceContentsToWire) };
    });
  },

  'prompts/get': async (rc) => {
    const name = requireString(rc.params, 'name');
    const args = optionalObject(rc.params, 'arguments');
    return withClientPort(rc, async () =>
      (await rc.session.server.layer.getPrompt(name, args, callOptions(rc))).toWire(),
    );
  },

  'completion/complete': async (rc) => {
    const ref = rc.params.ref;
    let target: CompletionRef;
    if (isObject(ref) && ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      target = { type: 'ref/prompt', name: ref.name };
    } else if (isObject(ref) && ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      target = { type: 'ref/resource', uri: ref.uri };
    } else {
      throw invalidParams('ref must be a ref/prompt with a name or a ref/resource with a uri');
    }
    const argument = rc.params.argument;
    if (!isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      throw invalidParams('argument must have a string name and value');
    }
    const context = optionalObject(rc.params, 'context');
    const contextArguments: Record<string, string> = {};
    const given = context && isObject(context.arguments) ? context.arguments : {};
    for (const [key, value] of Object.entries(given)) {
      if (typeof value === 'string') contextArguments[key] = value;
    }
    const completion = await rc.session.server.layer.complete(
      target,
      { name: argument.name, value: argument.value },
      { ...callOptions(rc), contextArguments },
    );
    return {
      completion: { values: completion.values, total: completion.total, hasMore: completion.hasMore },
    };
  },
};

/** Handshake era only. */
const legacy: Record<string, MethodHandler> = {
  initialize: (rc) => {
    const { session } = rc;
    const version = negotiateVersion(rc.params.protocolVersion);
    session.protocolVersion = version;
    session.clientInfo = isObject(rc.params.clientInfo) ? rc.params.clientInfo : undefined;
    session.clientCapabilities = isObject(rc.params.capabilities) ? rc.params.capabilities : {};
    session.initResponded = true;
    const { layer, title } = session.server;
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities: serverCapabilities(version === LATEST_HANDSHAKE_VERSION ? 'legacy-tasks' : undefined),
      serverInfo: serverInfo(layer, title),
    };
    if (layer.identity.instructions) result.instructions = layer.identity.instructions;
    return result;
  },
  ping: () => ({}),
  'logging/setLevel': (rc) => {
    const level = rc.params.level;
    if (typeof level !== 'string' || normalizeLogLevel(level) !== level) {
      throw new InvalidArgumentsError('Invalid log level', { data: { allowed: 'debug … emergency' } });
    }
    rc.session.logLevel = normalizeLogLevel(level);
    return {};
  },
  'resources/subscribe': async (rc) => {
    await rc.session.subscriptions.add(
      rc.session.server.layer,
      rc.principal,
      requireString(rc.params, 'uri'),
    );
    return {};
  },
  'resources/unsubscribe': async (rc) => {
    await rc.session.subscriptions.remove(
      rc.session.server.layer,
      rc.principal,
      requireString(rc.params, 'uri'),
    );
    return {};
  },
};

/** 2026-07-28 only. */
const modern: Record<string, MethodHandler> = {
  'server/discover': (rc) => {
    const { layer } = rc.session.server;
    const result: Record<string, unknown> = {
      supportedVersions: [...SUPPORTED_VERSIONS],
      capabilities: serverCapabilities('modern'),
    };
    if (layer.identity.instructions) result.instructions = layer.identity.instructions;
    return result;
  },
  'subscriptions/listen': listen,
};

const has = (table: Record<string, MethodHandler>, method: string) => Object.hasOwn(table, method);

/** The implementation of a method in an era, if the era has it. */
export function findMethod(era: 'legacy' | 'modern', method: string): MethodHandler | undefined {
  if (has(common, method)) return common[method];
  if (era === 'legacy' && has(legacy, method)) return legacy[method];
  if (era === 'modern' && has(modern, method)) return modern[method];
  if (era === 'legacy' && has(legacyTaskMethods, method)) return legacyTaskMethods[method];
  if (era === 'modern' && has(modernTaskMethods, method)) return modernTaskMethods[method];
  return undefined;
}
