/**
 * What every connection of one server shares: the layer, list paging, 2026 cache hints, the open
 * listen streams and the handshake-era sessions that receive change notifications.
 */
import type { Layer, LogLevel, TaskRelay, TaskStore } from '@cloudg/core';
import { DEFAULT_PAGE_SIZE } from '../paging/cursor.js';
import { TaskEngine } from '../tasks/task-engine.js';
import { checkLimit, DEFAULT_MAX_BATCH_ITEMS, DEFAULT_MAX_BATCH_RESPONSE_BYTES } from './batch-limits.js';
import { serverInfo } from './capabilities.js';
import type { ChangeFanout } from './change-fanout.js';
import { type ChangeEvent, expandChange } from './changes.js';
import type { ListenStream } from './listen.js';
import type { TracingOptions } from './observe.js';
import { RequestStateCodec } from './request-state.js';
import { Session, type SessionInit } from './session.js';

export type CacheScope = 'public' | 'private';

/** Where the request-state key is read from when `requestStateKey` is not given. */
export const REQUEST_STATE_KEY_ENV = 'CLOUDG_MCP_REQUEST_STATE_KEY';

export interface ProtocolOptions {
  /** Items per page of `tools/list` and the other lists; 0 disables paging. Default 100. */
  pageSize?: number;
  /** Log notification threshold of a handshake-era session before `logging/setLevel`. Default `info`. */
  defaultLogLevel?: LogLevel;
  /** `ttlMs` on cacheable 2026 results. Default 0. */
  cacheTtlMs?: number;
  /** `cacheScope` on cacheable 2026 results. Default `private`: lists depend on the principal. */
  cacheScope?: CacheScope;
  /** `serverInfo.title`; the layer's name by default. */
  title?: string;
  /** Messages one JSON-RPC batch may hold; a larger batch is refused before anything runs. Default 100. */
  maxBatchItems?: number;
  /**
   * Bytes the answers to one batch may add up to (as JSON); past it the batch's unfinished
   * requests are cancelled and the batch gets one error instead. Default 16 MiB.
   */
  maxBatchResponseBytes?: number;
  /**
   * OpenTelemetry tracing: a span per request, its parent taken from `params._meta` or the
   * transport's headers (`traceparent`). Off when absent.
   */
  tracing?: TracingOptions;
  /**
   * Spread the layer's changes to other replicas and hear theirs (`RedisChangeFanout` of
   * @cloudg/redis), so listeners on every replica are told. One fan-out per layer. Default: this
   * server hears its own layer only.
   */
  changes?: ChangeFanout;
  /**
   * HMAC key (at least 32 bytes) signing the `requestState` of 2026 `input_required` results.
   * Replicas behind one endpoint must share it. Default: the environment variable
   * CLOUDG_MCP_REQUEST_STATE_KEY, else a random per-process key.
   */
  requestStateKey?: string | Uint8Array;
  /** How long a `requestState` stays valid, in milliseconds. Default 15 minutes. */
  requestStateTtlMs?: number;
  /**
   * Where tasks are kept (tools that run as tasks for clients that support them). Default: in
   * this process, at most 100 per principal, so a task is known only to the replica that made
   * it. A store shared by replicas makes `tasks/get` work on any of them.
   */
  taskStore?: TaskStore;
  /**
   * With a shared `taskStore`: how cancellations and answers reach the replica running a task,
   * and how every replica hears each task change (`RedisTaskRelay` of @cloudg/redis).
   */
  taskRelay?: TaskRelay;
  /** How long a task is kept after it is created, in milliseconds. Default three hours. */
  taskTtlMs?: number;
  /** The poll interval suggested to clients, in milliseconds. Default 1000. */
  taskPollIntervalMs?: number;
}

export class McpProtocolServer {
  readonly layer: Layer<unknown>;
  readonly pageSize: number;
  readonly defaultLogLevel: LogLevel;
  readonly cacheTtlMs: number;
  readonly cacheScope: CacheScope;
  readonly title: string | undefined;
  readonly maxBatchItems: number;
  readonly maxBatchResponseBytes: number;
  readonly tracing: TracingOptions | undefined;
  /** Signs and checks the request state of multi round-trip requests. */
  readonly requestState: RequestStateCodec;
  /** The tasks of this server: tool calls that finish in the background. */
  readonly tasks: TaskEngine;
  /** Open `subscriptions/listen` requests. */
  readonly listens = new Set<ListenStream>();
  private readonly sessions = new Set<Session>();
  private readonly stopListening: () => void;

  constructor(layer: Layer<unknown>, options: ProtocolOptions = {}) {
    this.layer = layer;
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 0)
      throw new RangeError('pageSize must be 0 or a positive integer');
    this.pageSize = pageSize;
    this.defaultLogLevel = options.defaultLogLevel ?? 'info';
    this.cacheTtlMs = options.cacheTtlMs ?? 0;
    this.cacheScope = options.cacheScope ?? 'private';
    this.title = options.title;
    this.maxBatchItems = checkLimit(options.maxBatchItems ?? DEFAULT_MAX_BATCH_ITEMS, 'maxBatchItems');
    this.maxBatchResponseBytes = checkLimit(
      options.maxBatchResponseBytes ?? DEFAULT_MAX_BATCH_RESPONSE_BYTES,
      'maxBatchResponseBytes',
    );
    this.tracing = options.tracing;
    // The environment variable lets replicas share a key without code (and keeps it off argv).
    const key = options.requestStateKey ?? process.env[REQUEST_STATE_KEY_ENV];
    this.requestState = new RequestStateCodec({
      ...(key === undefined || key === '' ? {} : { key }),
      ...(options.requestStateTtlMs === undefined ? {} : { ttlMs: options.requestStateTtlMs }),
    });
    this.tasks = new TaskEngine({
      ...(options.taskStore === undefined ? {} : { store: options.taskStore }),
      ...(options.taskRelay === undefined ? {} : { relay: options.taskRelay }),
      ...(options.taskTtlMs === undefined ? {} : { ttlMs: options.taskTtlMs }),
      ...(options.taskPollIntervalMs === undefined ? {} : { pollIntervalMs: options.taskPollIntervalMs }),
    });
    const hear: Parameters<Layer<unknown>['onChange']>[0] = (kind, uri) => {
      for (const event of expandChange(kind, uri)) this.dispatch(event);
    };
    const fanout = options.changes;
    if (fanout) {
      // The layer's changes go out through the fan-out, which brings them back here with every
      // other replica's.
      const stopAnnouncing = layer.onChange((kind, uri) => fanout.announce(kind, uri));
      const stopHearing = fanout.subscribe(hear);
      const stopMissing = fanout.onMissed?.(() => this.dispatchEverything()) ?? (() => {});
      this.stopListening = () => {
        stopAnnouncing();
        stopHearing();
        stopMissing();
      };
    } else this.stopListening = layer.onChange(hear);
  }

  #serverInfo: Readonly<Record<string, unknown>> | undefined;

  /** The server's name, version and title; built once, since every 2026 result carries it. */
  serverInfo(): Readonly<Record<string, unknown>> {
    this.#serverInfo ??= Object.freeze(serverInfo(this.layer, this.title));
    return this.#serverInfo;
  }

  /** A new session; registered for change notifications unless `register` is false. */
  createSession(init: SessionInit): Session {
    const session = new Session(this, init);
    if (init.register !== false) this.sessions.add(session);
    return session;
  }

  unregister(session: Session): void {
    this.sessions.delete(session);
  }

  /** One change to every listen stream that asked for it and every handshake-era session. */
  private dispatch(event: ChangeEvent): void {
    for (const stream of [...this.listens]) stream.deliver(event);
    for (const session of [...this.sessions]) {
      try {
        session.emitChange(event);
      } catch (error) {
        this.layer.logger.debug({ err: error }, 'change notification failed; dropping the session');
        session.close();
      }
    }
  }

  /**
   * Changes from other replicas were missed beyond what the fan-out could replay: every listen
   * stream is told everything its filter follows, and every session every list change and each
   * resource it subscribed to, so clients read again what may have changed.
   */
  private dispatchEverything(): void {
    for (const stream of [...this.listens]) stream.deliverEverything();
    for (const session of [...this.sessions]) {
      try {
        session.emitEverything();
      } catch (error) {
        this.layer.logger.debug({ err: error }, 'change notification failed; dropping the session');
        session.close();
      }
    }
  }

  /** End every listen stream gracefully. */
  endListens(): void {
    for (const stream of [...this.listens]) stream.end();
  }

  /** Stop listening to the layer and close every session. */
  close(): void {
    this.endListens();
    for (const session of [...this.sessions]) session.close();
    this.tasks.cancelAll();
    this.stopListening();
  }
}
