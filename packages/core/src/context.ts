/** The per-call context every handler receives as its first argument. */

import { type AskOptions, askClient } from './asking/ask.js';
import type { ClientPort } from './asking/port.js';
import type {
  ClientQuestion,
  ElicitParams,
  ElicitResult,
  Root,
  SampleParams,
  SampleResult,
} from './asking/types.js';
import { type CancelSource, isCancellationView } from './cancellation.js';
import {
  type EmbeddedResource,
  type ResourceLink,
  type ResourceLinkOptions,
  resourceLink,
} from './content.js';
import type { JsonValue } from './json.js';
import { markReadThroughLayer } from './layer/embedded-read.js';
import type { Layer } from './layer/layer.js';
import type { Principal } from './principal.js';
import type { TaskStarter } from './tasks/task-record.js';

export type CallKind = 'tool' | 'resource' | 'prompt' | 'completion';

/** MCP log levels, lowest first. */
export const MCP_LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LogLevel = (typeof MCP_LOG_LEVELS)[number];

export type ProgressCallback = (
  progress: number,
  total: number | undefined,
  message: string | undefined,
) => unknown;
export type LogCallback = (level: LogLevel, data: JsonValue, logger: string) => unknown;

export interface ToolContextInit<TApp> {
  layer: Layer<TApp>;
  principal: Principal;
  kind?: CallKind;
  name?: string;
  requestId?: string | number | null;
  /** Aborted when the caller cancels; the layer adds the timeout on top. */
  signal?: CancelSource;
  /** The transport's session object, if any. */
  session?: unknown;
  meta?: Record<string, unknown>;
  onProgress?: ProgressCallback;
  onLog?: LogCallback;
  /** How this call asks its client (elicitation, sampling, roots); none means it cannot ask. */
  client?: ClientPort;
  /** Turns this call into a task, when the transport and client support tasks. */
  task?: TaskStarter;
}

/** Options of one question: its key (stable across the reruns of a 2026 call) and its timeout. */
export interface QuestionOptions extends AskOptions {
  key?: string;
}

/** A signal that never aborts: the default for calls nobody can cancel (shared, so it costs nothing). */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** The pino method each MCP level is logged with locally; pino has no notice, critical, alert or emergency. */
const PINO_LEVEL: Record<LogLevel, 'debug' | 'info' | 'warn' | 'error'> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

export function normalizeLogLevel(level: string): LogLevel {
  return (MCP_LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : 'info';
}

export class ToolContext<TApp = unknown> {
  readonly layer: Layer<TApp>;
  readonly principal: Principal;
  kind: CallKind;
  name: string;
  readonly requestId: string | number | null;
  private signalSource: () => AbortSignal;
  /** The caller's cancellation as given; the layer listens to it without building a signal. */
  readonly cancellation: CancelSource;
  readonly session: unknown;
  readonly meta: Record<string, unknown>;
  readonly links: ResourceLink[] = [];
  private readonly onProgress: ProgressCallback | undefined;
  private readonly onLog: LogCallback | undefined;
  private lastProgress = Number.NEGATIVE_INFINITY;
  private outbound: ((value: JsonValue) => Promise<JsonValue>) | undefined;
  private outboundActive: (() => boolean) | undefined;
  private inbound: ((value: JsonValue) => Promise<JsonValue>) | undefined;
  private readonly client: ClientPort | undefined;
  private readonly task: TaskStarter | undefined;
  private taskStarted = false;
  private taskStarting: Promise<void> | undefined;
  /** Questions asked so far, per method: the default keys (`elicit-1`, ...) count them. */
  private readonly asked = new Map<string, number>();

  constructor(init: ToolContextInit<TApp>) {
    this.layer = init.layer;
    this.principal = init.principal;
    this.kind = init.kind ?? 'tool';
    this.name = init.name ?? '';
    this.requestId = init.requestId ?? null;
    const source = init.signal ?? NEVER_ABORTED;
    this.cancellation = source;
    this.signalSource = isCancellationView(source) ? () => source.signal : () => source;
    this.session = init.session;
    this.meta = init.meta ?? {};
    this.onProgress = init.onProgress;
    this.onLog = init.onLog;
    this.client = init.client;
    this.task = init.task;
  }

  /** Aborted on cancellation or timeout. Long handlers check it (or pass it on) and stop. */
  get signal(): AbortSignal {
    return this.signalSource();
  }

  /**
   * Replace where `signal` comes from. The layer uses this to hand out a signal that also fires
   * on the tool's deadline, created only if the handler asks for it (AbortControllers are not free).
   */
  bindSignal(source: () => AbortSignal): void {
    this.signalSource = source;
  }

  /**
   * Route what this context sends the client outside the result (log data, progress messages)
   * through `filter`. The layer binds the call's output pipeline here, so a log line shows the
   * caller what a result would: pseudonyms, redactions, fences.
   */
  bindOutbound(filter: (value: JsonValue) => Promise<JsonValue>, active?: () => boolean): void {
    this.outbound = filter;
    this.outboundActive = active;
  }

  /**
   * Whether the caller's output pipeline changes what this call sends (false when the policy has
   * no output transforms for it). A handler that would transform a large value can skip the work.
   */
  get transformsOutput(): boolean {
    if (!this.outbound) return false;
    return this.outboundActive ? this.outboundActive() : true;
  }

  /**
   * `value` as this call's caller is shown it: the call's output pipeline (pseudonyms,
   * redactions, fences, projection), exactly as it applies to the result. For content a tool
   * hands over another way, such as a file it writes for the caller, so the policy governs that
   * content too. Without a bound pipeline the value comes back unchanged.
   */
  async forCaller(value: JsonValue): Promise<JsonValue> {
    return this.shown(value);
  }

  private async shown(value: JsonValue): Promise<JsonValue> {
    return this.outbound ? this.outbound(value) : value;
  }

  /** The application state the layer carries (for the catalog, the workspace). */
  get app(): TApp {
    return this.layer.app;
  }

  /**
   * Report progress. MCP requires progress to increase, so a value that is not greater than the
   * last one reported is dropped. A failing callback never breaks the tool.
   */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    if (!(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    if (!this.onProgress) return;
    try {
      const text = message === undefined ? undefined : await this.shown(message);
      await this.onProgress(progress, total, typeof text === 'string' ? text : undefined);
    } catch (error) {
      this.layer.logger.debug({ err: error }, 'progress callback failed');
    }
  }

  /** Send an MCP log notification (and log locally). Unknown levels become `info`. */
  async log(level: string, data: JsonValue, logger = 'cloudg'): Promise<void> {
    const lvl = normalizeLogLevel(level);
    this.layer.logger[PINO_LEVEL[lvl]]({ mcpLevel: lvl, logger, data }, 'tool log');
    if (!this.onLog) return;
    try {
      await this.onLog(lvl, await this.shown(data), logger);
    } catch (error) {
      this.layer.logger.debug({ err: error }, 'log callback failed');
    }
  }

  /** Append a `resource_link` to the tool's result. */
  link(uri: string, name: string, options: ResourceLinkOptions = {}): ResourceLink {
    const link = resourceLink(uri, name, options);
    this.links.push(link);
    return link;
  }

  /**
   * Read a resource as this call's caller and get its contents as blocks to embed (a prompt's
   * messages). The read is a request of its own through the layer: visibility, the policy's
   * access check and rate limit, its decision log, the middleware (audit, metrics) and the
   * caller's output pipeline all apply, exactly as to a `resources/read` from the caller, and
   * a refusal throws as that read would. The layer does not transform these blocks again when
   * the handler returns them unchanged.
   */
  async embedResource(uri: string): Promise<EmbeddedResource[]> {
    const contents = await this.layer.readResource(uri, {
      principal: this.principal,
      requestId: this.requestId,
      signal: this.cancellation,
      session: this.session,
    });
    return contents.map((resource) => markReadThroughLayer({ type: 'resource', resource }));
  }

  /**
   * Route what the client answers through `filter` (the layer binds the call's input pipeline),
   * so a pseudonym the person types is restored like one in the call's arguments.
   */
  bindInbound(filter: (value: JsonValue) => Promise<JsonValue>): void {
    this.inbound = filter;
  }

  /** Whether the client declared the capability: a handler can offer a path that does not ask. */
  clientSupports(capability: 'elicitation' | 'sampling' | 'roots'): boolean {
    return this.client?.supports(capability) ?? false;
  }

  /**
   * Ask the client several questions in one round, by key; resolves with the answers by key.
   * Throws `MissingClientCapabilityError` (-32021) when the client did not declare what a
   * question needs. In the 2026 era the first attempt of a call ends here (`InputRequiredSignal`)
   * and the call runs again with the answers: put side effects after the questions.
   */
  async ask(
    questions: Record<string, ClientQuestion>,
    options: AskOptions = {},
  ): Promise<Record<string, JsonValue>> {
    return askClient(
      this.client,
      questions,
      this.signal,
      {
        outbound: (v) => this.shown(v),
        inbound: (v) => (this.inbound ? this.inbound(v) : Promise.resolve(v)),
      },
      options,
    );
  }

  /** Ask the person to fill a form (`elicitation/create`, form mode). */
  async elicit(params: ElicitParams, options: QuestionOptions = {}): Promise<ElicitResult> {
    const key = options.key ?? this.nextKey('elicit');
    const answers = await this.ask(
      { [key]: { method: 'elicitation/create', params: { mode: 'form', ...params } } },
      options,
    );
    return answers[key] as unknown as ElicitResult;
  }

  /**
   * Ask the person to confirm `message`: true only when they accept (and leave `confirm` ticked).
   * Declining or dismissing the question gives false; the handler then does nothing.
   */
  async confirm(message: string, options: QuestionOptions = {}): Promise<boolean> {
    const answer = await this.elicit(
      {
        message,
        requestedSchema: {
          type: 'object',
          properties: { confirm: { type: 'boolean', title: 'Go ahead', default: true } },
        },
      },
      { ...options, key: options.key ?? this.nextKey('confirm') },
    );
    return answer.action === 'accept' && answer.content?.confirm !== false;
  }

  /** Borrow the client's model (`sampling/createMessage`). */
  async sample(params: SampleParams, options: QuestionOptions = {}): Promise<SampleResult> {
    const key = options.key ?? this.nextKey('sample');
    const answers = await this.ask({ [key]: { method: 'sampling/createMessage', params } }, options);
    return answers[key] as unknown as SampleResult;
  }

  /** The folders the user opened in the client (`roots/list`). */
  async listRoots(options: QuestionOptions = {}): Promise<Root[]> {
    const key = options.key ?? this.nextKey('roots');
    const answers = await this.ask({ [key]: { method: 'roots/list', params: {} } }, options);
    return (answers[key] as unknown as { roots: Root[] }).roots;
  }

  /** `elicit-1`, `elicit-2`...: the same handler asking in the same order gets the same keys on a rerun. */
  private nextKey(kind: string): string {
    const n = (this.asked.get(kind) ?? 0) + 1;
    this.asked.set(kind, n);
    return `${kind}-${n}`;
  }

  /** Whether this call runs as a task (its request already answered with the task's handle). */
  get isTask(): boolean {
    return this.taskStarted;
  }

  /**
   * Turn this call into a task when its caller supports tasks: the request answers at once with
   * the task's handle and the rest of the handler runs in the background, its result kept for the
   * client to fetch. Questions asked afterwards wait in the task (status `input_required`) for the
   * client's answers. Resolves false when the call cannot become a task (it then just goes on).
   * The layer calls it before the handler of a tool with `taskSupport`; a tool with
   * `taskStart: 'handler'` calls it itself, after the questions it asks first.
   */
  async startTask(): Promise<boolean> {
    if (!this.task) return false;
    // One start however often it is asked for, even by calls made before the first one resolved.
    this.taskStarting ??= this.task.start().then(() => {
      this.taskStarted = true;
    });
    await this.taskStarting;
    return true;
  }

  /** Throw the abort reason if the call was cancelled or timed out. */
  throwIfAborted(): void {
    this.signal.throwIfAborted();
  }
}
