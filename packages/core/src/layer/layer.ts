/**
 * The layer: one path for every request. Transports and adapters decode, resolve the principal
 * and call `callTool`, `readResource`, `getPrompt` or `complete`; policy, transforms,
 * middleware, validation, timeouts and finalisation all happen here.
 */
import type { Logger } from 'pino';
import type { ClientPort } from '../asking/port.js';
import type { CancelSource } from '../cancellation.js';
import type { ResourceContents } from '../content.js';
import { type CallKind, type LogCallback, type ProgressCallback, ToolContext } from '../context.js';
import { NotFoundError } from '../errors.js';
import { type JsonObject, toJsonable } from '../json.js';
import { createLogger } from '../logger.js';
import { didYouMean, messageSafe } from '../message-text.js';
import type { CallInfo, Middleware, RefusedCall } from '../middleware/types.js';
import { allowAllPolicy, type IdentifierSource, type PolicyPort } from '../policy-port.js';
import { Principal } from '../principal.js';
import { Registry } from '../registry.js';
import type { CompletionResult, PromptResult, ToolResult } from '../results.js';
import { closeMatches, similarity } from '../similarity.js';
import type { AnySpec, PromptSpec, ResourceSpec, ResourceTemplateSpec, ToolSpec } from '../specs/index.js';
import type { TaskStarter, TaskSupport } from '../tasks/task-record.js';
import { runCallTool } from './call-tool.js';
import { runCompletion } from './complete.js';
import { runGetPrompt } from './get-prompt.js';
import {
  DEFAULT_INSTRUCTIONS,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_TIMEOUT_SECONDS,
  filterRegistry,
  LayerConfigError,
  type LayerOptions,
  validatePrefix,
} from './options.js';
import { runReadResource } from './read-resource.js';
import { applyPipeline, isActive, pipelineTarget, restoreInput } from './transform.js';

/** How a call identifies its caller and wires progress and logs back to it. */
export interface CallOptions<TApp> {
  principal?: Principal;
  context?: ToolContext<TApp>;
  requestId?: string | number | null;
  /**
   * Cancellation from the caller (a transport's `notifications/cancelled`): an `AbortSignal`, or a
   * `Cancellation`, which costs less when nobody cancels.
   */
  signal?: CancelSource;
  session?: unknown;
  onProgress?: ProgressCallback;
  onLog?: LogCallback;
  /** How the call asks its client; filled by the transport per request. */
  client?: ClientPort;
  /** Lets the call become a task; given by a transport when the client supports tasks. */
  task?: TaskStarter;
}

/** A request as the layer received it, before it reaches the middleware chain. */
export interface UnchainedRequest<TApp> {
  kind: CallKind;
  /** The name or URI as sent. */
  name: string;
  /** Whether `name` is a URI the caller wrote; default: only for resource reads. */
  nameIsUri?: boolean;
  /** The primitive, once the lookup found one. */
  spec?: AnySpec<TApp>;
  arguments: Record<string, unknown>;
  principal: Principal;
  options: CallOptions<TApp>;
}

export type ChangeKind = 'tools' | 'prompts' | 'resources' | 'resource';
export type ChangeListener = (kind: ChangeKind, uri: string | undefined) => void;

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface ServerIdentity {
  name: string;
  version: string;
  instructions: string;
}

/** A URI without its `scheme:` or `scheme://`. */
function afterScheme(uri: string): string {
  return uri.replace(/^[a-z][a-z0-9+.-]*:(?:\/\/)?/i, '');
}

/**
 * A template (after its scheme) and a URI (after its scheme) with each variable segment of the
 * template, and the URI's segments in its place, written `*` (a `{+var}` takes every segment the
 * fixed ones after it leave). A URI is then close to a template when their fixed parts are
 * (`finding/*` and `findings/*`), whatever the variable is named or holds.
 */
function fixedParts(template: string, rest: string): [string, string] {
  const slots = template.split('/');
  const parts = rest.split('/');
  const outTemplate: string[] = [];
  const outUri: string[] = [];
  let at = 0;
  slots.forEach((slot, i) => {
    const variable = /^\{.+\}$/.test(slot);
    const take =
      variable && slot.startsWith('{+') ? Math.max(1, parts.length - at - (slots.length - i - 1)) : 1;
    outTemplate.push(variable ? '*' : slot);
    if (at < parts.length) outUri.push(variable ? '*' : parts.slice(at, at + take).join('/'));
    at += take;
  });
  if (at < parts.length) outUri.push(...parts.slice(at));
  return [outTemplate.join('/'), outUri.join('/')];
}

/** Up to three of the scored names at least 0.6 similar, best first (as `closeMatches`). */
function bestOf(scored: Array<[number, string]>): string[] {
  return scored
    .filter(([score]) => score >= 0.6)
    .sort((x, y) => y[0] - x[0] || (y[1] < x[1] ? -1 : y[1] > x[1] ? 1 : 0))
    .slice(0, 3)
    .map(([, name]) => name);
}

export class Layer<TApp = unknown> {
  readonly app: TApp;
  readonly policy: PolicyPort;
  readonly identifiers: IdentifierSource | undefined;
  readonly registry: Registry<TApp>;
  readonly middleware: Middleware<TApp>[];
  readonly prefix: string;
  readonly defaultTimeout: number;
  readonly maxOutputChars: number;
  /** Whether JSON rendered as text is indented (`LayerOptions.prettyJson`). */
  readonly prettyJson: boolean;
  readonly identity: ServerIdentity;
  readonly logger: Logger;
  private readonly listeners = new Set<ChangeListener>();

  constructor(options: LayerOptions<TApp> = {}) {
    this.app = options.app as TApp;
    this.policy = options.policy ?? allowAllPolicy;
    this.identifiers = options.identifiers;
    this.registry = filterRegistry(options.registry ?? new Registry<TApp>(), options);
    this.prefix = validatePrefix(options.prefix ?? '');
    this.middleware = [...(options.middleware ?? [])];
    const timeout =
      options.defaultTimeout === undefined ? DEFAULT_TIMEOUT_SECONDS : (options.defaultTimeout ?? 0);
    if (!(timeout >= 0))
      throw new LayerConfigError(
        'defaultTimeout must be 0 (disabled) or a positive number of seconds',
        'defaultTimeout',
      );
    this.defaultTimeout = timeout;
    const cap = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
    if (!(cap >= 0)) throw new LayerConfigError('maxOutputChars must not be negative', 'maxOutputChars');
    this.maxOutputChars = cap;
    this.prettyJson = options.prettyJson ?? false;
    this.identity = {
      name: options.name ?? 'cloudg',
      version: options.version ?? '0.1.0',
      instructions: options.instructions ?? DEFAULT_INSTRUCTIONS,
    };
    this.logger = options.logger ?? createLogger();
  }

  /** Append a middleware, innermost so far. Takes effect on the next call. */
  use(middleware: Middleware<TApp>): this {
    this.middleware.push(middleware);
    return this;
  }

  exposedName(name: string): string {
    return this.prefix + name;
  }

  /** Strip the prefix. With a prefix set, an unprefixed name maps to a key no registry holds. */
  internalName(exposed: string): string {
    if (!this.prefix) return exposed;
    return exposed.startsWith(this.prefix) ? exposed.slice(this.prefix.length) : `\u0000${exposed}`;
  }

  /** Build a context for a call. */
  context(
    principal: Principal = Principal.local(),
    fields: Omit<CallOptions<TApp>, 'principal' | 'context'> = {},
  ): ToolContext<TApp> {
    const init: ConstructorParameters<typeof ToolContext<TApp>>[0] = { layer: this, principal };
    if (fields.requestId !== undefined) init.requestId = fields.requestId;
    if (fields.signal !== undefined) init.signal = fields.signal;
    if (fields.session !== undefined) init.session = fields.session;
    if (fields.onProgress !== undefined) init.onProgress = fields.onProgress;
    if (fields.onLog !== undefined) init.onLog = fields.onLog;
    if (fields.client !== undefined) init.client = fields.client;
    if (fields.task !== undefined) init.task = fields.task;
    return new ToolContext<TApp>(init);
  }

  /** Who is calling: the explicit principal, else the context's, else the local user. */
  callerOf(options: CallOptions<TApp>): Principal {
    return options.principal ?? options.context?.principal ?? Principal.local();
  }

  /**
   * The CallInfo middleware sees, with its context (the caller's own when given, else a new one
   * for `principal`); the clock for `cloudg/duration_ms` starts here.
   */
  startCall(
    kind: CallKind,
    name: string,
    spec: AnySpec<TApp>,
    args: Record<string, unknown>,
    principal: Principal,
    options: CallOptions<TApp>,
  ): CallInfo<TApp> {
    const context = options.context ?? this.context(principal, options);
    context.kind = kind;
    context.name = name;
    // The target is looked up once, on first use: most calls never send anything outside the result.
    let target: ReturnType<typeof pipelineTarget> | undefined;
    const targetOf = () => {
      target ??= pipelineTarget(this, spec as AnySpec, principal, kind, 'output', context);
      return target;
    };
    context.bindOutbound(
      async (value) => toJsonable((await applyPipeline(targetOf(), value)).value),
      () => isActive(targetOf().pipeline),
    );
    let input: ReturnType<typeof pipelineTarget> | undefined;
    context.bindInbound(async (value) => {
      input ??= pipelineTarget(this, spec as AnySpec, principal, kind, 'input', context);
      return toJsonable(await restoreInput(this.policy, input, value));
    });
    return { kind, name, spec, arguments: args, principal, context, started: performance.now() };
  }

  /**
   * Run the steps that come before the middleware chain (lookup, visibility, checks of the
   * arguments). When one refuses the request, the refusal is reported (see `refused`) and the
   * error goes on to the caller unchanged.
   */
  admit<T>(request: UnchainedRequest<TApp>, steps: () => T): T {
    const started = performance.now();
    try {
      return steps();
    } catch (error) {
      this.refused(request, error, started);
      throw error;
    }
  }

  /**
   * Tell the middleware that account for requests (`Middleware.refused`, the audit log) about one
   * the layer answers without running the chain, so each request that reaches the layer is seen
   * exactly once: by the chain, or here. `error` is what the caller gets, if anything.
   */
  refused(request: UnchainedRequest<TApp>, error?: unknown, started = performance.now()): void {
    const observers = this.middleware.filter((mw) => mw.refused);
    if (observers.length === 0) return;
    const call: RefusedCall = {
      kind: request.kind,
      name: request.name,
      nameIsUri: request.nameIsUri ?? request.kind === 'resource',
      arguments: request.arguments,
      principal: request.principal,
      requestId: request.options.requestId ?? request.options.context?.requestId ?? null,
      started,
      logger: this.logger,
    };
    if (request.spec) call.spec = request.spec as AnySpec;
    if (error !== undefined) call.error = error;
    for (const mw of observers) {
      try {
        mw.refused?.(call);
      } catch (err) {
        this.logger.debug({ err }, 'middleware refusal hook failed');
      }
    }
  }

  // ---- visibility and listings -------------------------------------------------------------

  isVisible(spec: AnySpec<TApp>, principal: Principal): boolean {
    return this.policy.isAllowed(spec as AnySpec, principal);
  }

  listTools(principal: Principal = Principal.local()): ToolSpec<TApp>[] {
    return [...this.registry.tools.values()].filter((s) => this.isVisible(s, principal));
  }

  listResources(principal: Principal = Principal.local()): ResourceSpec<TApp>[] {
    return [...this.registry.resources.values()].filter((s) => this.isVisible(s, principal));
  }

  listResourceTemplates(principal: Principal = Principal.local()): ResourceTemplateSpec<TApp>[] {
    return [...this.registry.templates.values()].filter((s) => this.isVisible(s, principal));
  }

  listPrompts(principal: Principal = Principal.local()): PromptSpec<TApp>[] {
    return [...this.registry.prompts.values()].filter((s) => this.isVisible(s, principal));
  }

  /**
   * `tools/list` entries for a principal. `outputSchema` is left out whenever the caller's output
   * pipeline for the tool is not empty: masking and pseudonyms change the shape clients validate.
   */
  toolsWire(principal: Principal = Principal.local()): JsonObject[] {
    return this.listTools(principal).map((spec) =>
      spec.toWire(this.exposedName(spec.name), {
        includeOutputSchema: !isActive(this.policy.outputPipeline(spec as AnySpec, principal)),
      }),
    );
  }

  resourcesWire(principal: Principal = Principal.local()): JsonObject[] {
    return this.listResources(principal).map((spec) => spec.toWire());
  }

  resourceTemplatesWire(principal: Principal = Principal.local()): JsonObject[] {
    return this.listResourceTemplates(principal).map((spec) => spec.toWire());
  }

  promptsWire(principal: Principal = Principal.local()): JsonObject[] {
    return this.listPrompts(principal).map((spec) => spec.toWire(this.exposedName(spec.name)));
  }

  // ---- lookups -----------------------------------------------------------------------------

  /** The spec behind an exposed tool name, or NotFoundError; hidden and unknown look the same. */
  getTool(name: string, principal: Principal = Principal.local()): ToolSpec<TApp> {
    const spec = this.registry.tools.get(this.internalName(name));
    if (spec && this.isVisible(spec, principal)) return spec;
    this.recordHidden('tool', name, principal);
    throw this.unknownName('tool', name, this.listTools(principal));
  }

  /**
   * How a tool supports tasks, for the transport deciding whether a call may become one;
   * `forbidden` for a name the principal cannot call (the call itself then says why).
   */
  taskSupportOf(name: string, principal: Principal = Principal.local()): TaskSupport {
    const spec = this.registry.tools.get(this.internalName(name));
    return spec && this.isVisible(spec, principal) ? spec.taskSupport : 'forbidden';
  }

  getPromptSpec(name: string, principal: Principal = Principal.local()): PromptSpec<TApp> {
    const spec = this.registry.prompts.get(this.internalName(name));
    if (spec && this.isVisible(spec, principal)) return spec;
    this.recordHidden('prompt', name, principal);
    throw this.unknownName('prompt', name, this.listPrompts(principal));
  }

  /** The resource or template serving a URI: exact URIs first, then templates, longest first. */
  resolveResource(
    uri: string,
    principal: Principal = Principal.local(),
  ): { spec: ResourceSpec<TApp> | ResourceTemplateSpec<TApp>; variables: Record<string, string> } {
    const exact = this.registry.resources.get(uri);
    if (exact && this.isVisible(exact, principal)) return { spec: exact, variables: {} };
    if (!exact) {
      const found = this.registry.findTemplate(uri);
      if (found && this.isVisible(found.spec, principal)) return found;
    }
    this.recordHidden('resource', uri, principal);
    throw this.unknownResource(uri, principal);
  }

  /**
   * The URI a client names (in `resources/subscribe` or a listen filter) in real values: the
   * template variables it sent as pseudonyms restored by the caller's input pipeline, as a read
   * would restore them. Change events carry real URIs, so this is what a subscription matches;
   * the client is still told about the URI it sent. A URI no resource serves, or one the input
   * pipeline refuses, comes back as it was: subscribing records nothing and fails nothing.
   */
  async realResourceUri(uri: string, principal: Principal = Principal.local()): Promise<string> {
    if (this.registry.resources.has(uri)) return uri;
    const found = this.registry.findTemplate(uri);
    if (!found || !this.isVisible(found.spec, principal)) return uri;
    const target = pipelineTarget(this, found.spec as AnySpec, principal, 'resource', 'input', {});
    if (!isActive(target.pipeline)) return uri;
    try {
      const restored = (await applyPipeline(target, found.variables)).value as Record<string, unknown>;
      const vars: Record<string, string> = {};
      for (const name of found.spec.template.variables) {
        const value = restored?.[name];
        if (typeof value !== 'string') return uri;
        vars[name] = value;
      }
      const changed = found.spec.template.variables.some((name) => vars[name] !== found.variables[name]);
      return changed ? found.spec.template.expand(vars) : uri;
    } catch {
      return uri;
    }
  }

  /**
   * The not-found error for a tool or prompt name, naming close matches among the ones the
   * caller can see (never a hidden one: that would tell the caller it exists).
   */
  private unknownName(
    label: 'tool' | 'prompt',
    name: string,
    visible: readonly AnySpec<TApp>[],
  ): NotFoundError {
    const close = closeMatches(
      name,
      visible.map((spec) => this.exposedName(spec.name)),
    );
    const hint = close.length ? `.${didYouMean(close)}` : '';
    return new NotFoundError(`Unknown ${label}: ${messageSafe(name)}${hint}`, {
      data: close.length ? { name, close_matches: close } : { name },
    });
  }

  /**
   * The not-found error for a URI, naming close matches among the resources and templates the
   * caller can see: their URIs and template strings are the server's own, never data. They are
   * compared after the scheme, which every URI of a server shares and would make any short URI
   * look close to all of them, and a template on its fixed parts (`fixedParts`).
   */
  private unknownResource(uri: string, principal: Principal): NotFoundError {
    const rest = afterScheme(uri);
    const scored: Array<[number, string]> = [];
    for (const spec of this.listResources(principal))
      scored.push([similarity(rest, afterScheme(spec.uri)), spec.uri]);
    for (const spec of this.listResourceTemplates(principal)) {
      const [template, masked] = fixedParts(afterScheme(spec.uriTemplate), rest);
      scored.push([similarity(masked, template), spec.uriTemplate]);
    }
    const close = bestOf(scored);
    const hint = close.length ? `.${didYouMean(close)}` : '';
    return new NotFoundError(`Unknown resource: ${messageSafe(uri)}${hint}`, {
      data: close.length ? { uri, close_matches: close } : { uri },
    });
  }

  private recordHidden(kind: CallKind, name: string, principal: Principal): void {
    try {
      this.policy.recordHidden?.(kind, name, principal);
    } catch (error) {
      this.logger.debug({ err: error }, 'policy.recordHidden failed');
    }
  }

  // ---- the four entry points ---------------------------------------------------------------

  /**
   * Call a tool. Only an unknown or hidden name throws (NotFoundError); every other failure comes
   * back as an `isError` result with `cloudg/error_code`.
   */
  callTool(
    name: string,
    args?: Record<string, unknown> | null,
    options: CallOptions<TApp> = {},
  ): Promise<ToolResult> {
    return runCallTool(this, name, args ?? {}, options);
  }

  /** Read a resource. Failures throw McpLayerError subclasses, which transports map to JSON-RPC errors. */
  readResource(uri: string, options: CallOptions<TApp> = {}): Promise<ResourceContents[]> {
    return runReadResource(this, uri, options);
  }

  /** Get a prompt. Missing required arguments throw InvalidArgumentsError. */
  getPrompt(
    name: string,
    args?: Record<string, unknown> | null,
    options: CallOptions<TApp> = {},
  ): Promise<PromptResult> {
    return runGetPrompt(this, name, args ?? {}, options);
  }

  /** Complete a prompt argument or a template variable: at most 100 values, with `total` and `hasMore`. */
  complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    options: CallOptions<TApp> & { contextArguments?: Record<string, string> } = {},
  ): Promise<CompletionResult> {
    return runCompletion(this, ref, argument, options);
  }

  // ---- change events -----------------------------------------------------------------------

  /** Listen for `tools`, `prompts`, `resources` (list changed) and `resource` (one URI updated). */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notifyChange(kind: ChangeKind, uri?: string): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(kind, uri);
      } catch (error) {
        this.logger.debug({ err: error }, 'change listener failed');
      }
    }
  }
}
