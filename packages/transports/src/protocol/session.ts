/**
 * One conversation: a stdio connection, an HTTP session, or a one-shot HTTP request. It decides
 * its era from its first request, validates every message, routes it to a method and turns
 * failures into JSON-RPC errors.
 */
import {
  Cancellation,
  CancelledError,
  type CancelSource,
  ErrorCode,
  isMcpLayerError,
  type LogLevel,
  NotFoundError,
  onCancel,
  type Principal,
} from '@cloudg/core';
import { invalidRequest, methodNotFound, ProtocolError } from '../jsonrpc/errors.js';
import {
  errorResponse,
  isObject,
  isValidId,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type RequestId,
  resultResponse,
} from '../jsonrpc/messages.js';
import { responseTooLarge, tooManyItems } from './batch-limits.js';
import { type ChangeEvent, expandChange } from './changes.js';
import { fetchClientRoots, OutgoingRequests } from './client-requests.js';
import { type Envelope, hasEnvelope, MetaKeys, readEnvelope } from './envelope.js';
import { findMethod } from './methods.js';
import { allowsBatches } from './negotiate.js';
import {
  isObserving,
  type ObservedRequest,
  observeRequest,
  type RequestObservation,
  requestOutcome,
  resultOutcome,
  type TraceCarrier,
} from './observe.js';
import type { RequestContext } from './request-context.js';
import type { McpProtocolServer } from './server.js';
import { SubscribedUris } from './subscribed-uris.js';
import { CACHEABLE_METHODS, type Era, MODERN_VERSION } from './versions.js';

export type TransportKind = 'stdio' | 'http' | 'sse' | 'memory';
export type Send = (message: JsonRpcMessage) => void;

export interface SessionInit {
  transport: TransportKind;
  principal: Principal;
  /** Delivers server-initiated messages (change notifications, notifications of JSON-mode requests). */
  send?: Send;
  /** The HTTP session id, when there is one. */
  id?: string;
  /** Start as an initialized handshake-era session at this version (stateless HTTP). */
  presetVersion?: string;
  /** Receive change notifications (false for one-shot sessions). Default true. */
  register?: boolean;
  /**
   * Ask a handshake-era client for its roots once initialized and whenever they change, and hand
   * the `file:` URIs over (stdio's `clientRoots` option). Needs the client's `roots` capability.
   */
  clientRoots?: (uris: string[]) => void;
  /**
   * Where a message goes that this replica cannot settle here (a session shared by replicas):
   * a client's response to a question another replica asked, a cancellation of a request that
   * does not run here.
   */
  relay?: SessionRelay;
  /** Prefix of the ids of questions this session asks its client. Default `cloudg-`. */
  questionPrefix?: string;
  /**
   * Whether `send` reaches the client now (an HTTP session: its GET stream is open). Default:
   * whenever there is a `send`.
   */
  reachable?: () => boolean;
}

/** See `SessionInit.relay`. */
export interface SessionRelay {
  response(message: Record<string, unknown>): void;
  cancel(id: RequestId): void;
}

export interface HandleOptions {
  /** Where notifications of this request go (an SSE stream); the session's `send` otherwise. */
  sink?: Send;
  /** Aborts the request, for example when its 2026 HTTP stream drops. */
  signal?: CancelSource;
  /** The caller of this message; the session's principal when not given. */
  principal?: Principal;
  /** The transport's trace context carrier (HTTP headers), read when tracing is configured. */
  carrier?: TraceCarrier;
}

export type HandleResult = JsonRpcResponse | JsonRpcResponse[] | undefined;

/** The `cloudg/error_code` of a tool's error result, for the log line and span. */
function errorCodeOf(result: Record<string, unknown>): number | string | undefined {
  if (result.isError !== true) return undefined;
  const meta = result._meta;
  const code =
    meta && typeof meta === 'object' ? (meta as Record<string, unknown>)['cloudg/error_code'] : undefined;
  return typeof code === 'number' || typeof code === 'string' ? code : undefined;
}

export class Session {
  readonly server: McpProtocolServer;
  readonly transport: TransportKind;
  readonly id: string | undefined;
  principal: Principal;
  era: Era | undefined;
  protocolVersion: string | undefined;
  initResponded = false;
  initialized = false;
  clientInfo: Record<string, unknown> | undefined;
  clientCapabilities: Record<string, unknown> | undefined;
  /** Threshold for log notifications on the handshake era (`logging/setLevel`). */
  logLevel: LogLevel;
  readonly subscriptions = new SubscribedUris();
  /** Questions this session sent its client (handshake era) that wait for a response. */
  readonly outgoing: OutgoingRequests;
  private readonly send: Send | undefined;
  private readonly relay: SessionRelay | undefined;
  private readonly clientRoots: ((uris: string[]) => void) | undefined;
  private readonly reachable: (() => boolean) | undefined;
  /**
   * Requests being served, by id. A client may wrongly reuse an id while its first request still
   * runs; both are kept, so each can still be cancelled (and is at end of input).
   */
  private readonly inflight = new Map<RequestId, Cancellation[]>();
  /** When each request in flight started (ms since the epoch), for `cancel`'s `startedBy`. */
  private readonly started = new WeakMap<Cancellation, number>();
  private closed = false;

  constructor(server: McpProtocolServer, init: SessionInit) {
    this.server = server;
    this.transport = init.transport;
    this.id = init.id;
    this.principal = init.principal;
    this.send = init.send;
    this.clientRoots = init.clientRoots;
    this.reachable = init.reachable;
    this.relay = init.relay;
    this.outgoing = new OutgoingRequests(init.questionPrefix);
    this.logLevel = server.defaultLogLevel;
    if (init.presetVersion !== undefined) {
      this.era = 'legacy';
      this.protocolVersion = init.presetVersion;
      this.initResponded = true;
      this.initialized = true;
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Number of requests being served. */
  get pending(): number {
    let count = 0;
    for (const running of this.inflight.values()) count += running.length;
    return count;
  }

  /** Handle one decoded message or a batch; resolves with what to send back, if anything. */
  async handle(message: unknown, options: HandleOptions = {}): Promise<HandleResult> {
    if (Array.isArray(message)) return this.handleBatch(message, options);
    return this.handleOne(message, options);
  }

  private async handleBatch(batch: unknown[], options: HandleOptions): Promise<HandleResult> {
    if (batch.length === 0)
      return errorResponse(null, invalidRequest('Invalid Request: empty batch').toJsonRpc());
    if (this.era !== 'legacy' || !allowsBatches(this.protocolVersion)) {
      const version =
        this.era === 'modern' || batch.some((m) => isObject(m) && hasEnvelope(m.params))
          ? MODERN_VERSION
          : this.protocolVersion;
      const message = version
        ? `JSON-RPC batches are not supported by protocol version ${version}`
        : 'JSON-RPC batches are not supported before initialize';
      return errorResponse(null, invalidRequest(message).toJsonRpc());
    }
    const { maxBatchItems, maxBatchResponseBytes } = this.server;
    if (batch.length > maxBatchItems) return tooManyItems(batch.length, maxBatchItems);
    // The answers are counted as they arrive; once they pass the limit, whatever still runs is
    // cancelled, so a batch can neither build a huge answer nor keep working for one.
    const stop = new Cancellation();
    const outer = options.signal;
    const stopForwarding = outer ? onCancel(outer, () => stop.abort()) : undefined;
    let bytes = 2;
    let over = false;
    try {
      const results = await Promise.all(
        batch.map(async (item) => {
          const result = await this.handleOne(item, { ...options, signal: stop });
          if (result === undefined || over) return result;
          bytes += Buffer.byteLength(JSON.stringify(result)) + 1;
          if (bytes > maxBatchResponseBytes) {
            over = true;
            stop.abort();
          }
          return result;
        }),
      );
      if (over) return responseTooLarge(maxBatchResponseBytes);
      const responses = results.filter((r): r is JsonRpcResponse => r !== undefined);
      return responses.length > 0 ? responses : undefined;
    } finally {
      stopForwarding?.();
    }
  }

  private async handleOne(message: unknown, options: HandleOptions): Promise<JsonRpcResponse | undefined> {
    if (!isObject(message) || message.jsonrpc !== '2.0') {
      return errorResponse(null, invalidRequest().toJsonRpc());
    }
    if (!('method' in message)) {
      // A response settles the question it answers; one to something never asked is ignored.
      if ('result' in message || 'error' in message) {
        if (!this.outgoing.settle(message)) this.relay?.response(message);
        return undefined;
      }
      return errorResponse(null, invalidRequest().toJsonRpc());
    }
    const { method } = message;
    const hasId = 'id' in message;
    if (typeof method !== 'string' || (hasId && !isValidId(message.id))) {
      const id = isValidId(message.id) ? message.id : null;
      return errorResponse(id, invalidRequest().toJsonRpc());
    }
    const params = message.params ?? {};
    if (!isObject(params)) {
      const id = hasId ? (message.id as RequestId) : null;
      return hasId
        ? errorResponse(id, invalidRequest('Invalid Request: params must be an object').toJsonRpc())
        : undefined;
    }
    if (!hasId) {
      this.handleNotification(method, params);
      return undefined;
    }
    return this.handleRequest(message.id as RequestId, method, params, options);
  }

  private handleNotification(method: string, params: Record<string, unknown>): void {
    if (method === 'notifications/initialized') {
      if (this.era === 'legacy' && this.initResponded) this.initialized = true;
      if (this.initialized) this.refreshRoots();
    } else if (method === 'notifications/roots/list_changed') {
      if (this.initialized) this.refreshRoots();
    } else if (method === 'notifications/cancelled') {
      const id = params.requestId;
      if (!isValidId(id)) return;
      if (this.inflight.has(id)) this.cancel(id);
      else this.relay?.cancel(id);
    }
    // Every other notification is ignored, as JSON-RPC allows.
  }

  private refreshRoots(): void {
    const deliver = this.clientRoots;
    if (!deliver || !this.send || this.closed) return;
    fetchClientRoots(this, this.send, this.server.layer.logger).then((uris) => {
      if (uris !== undefined) deliver(uris);
    });
  }

  /**
   * Abort a request in flight; it then gets no response. With `startedBy` (ms since the epoch),
   * only the requests with that id that started by then: a cancellation relayed from another
   * replica must not stop a later request that reused the id.
   */
  cancel(id: RequestId, startedBy?: number): void {
    const running = this.inflight.get(id);
    if (!running) return;
    for (const cancellation of [...running]) {
      if (startedBy !== undefined && (this.started.get(cancellation) ?? 0) > startedBy) continue;
      cancellation.abort(new CancelledError('Request cancelled'));
    }
  }

  private async handleRequest(
    id: RequestId,
    method: string,
    params: Record<string, unknown>,
    options: HandleOptions,
  ): Promise<JsonRpcResponse | undefined> {
    // A Cancellation, not an AbortController: most requests finish uncancelled, and a standard
    // signal is built only if a handler asks for one.
    const cancellation = new Cancellation();
    const outer = options.signal;
    const forward = () => cancellation.abort(new CancelledError('Request cancelled'));
    const stopForwarding = outer ? onCancel(outer, forward) : undefined;
    if (this.closed) forward();
    let running = this.inflight.get(id);
    if (!running) {
      running = [];
      this.inflight.set(id, running);
    }
    running.push(cancellation);
    this.started.set(cancellation, Date.now());
    let era: Era = 'legacy';
    const principal = options.principal ?? this.principal;
    const { logger } = this.server.layer;
    const { tracing } = this.server;
    // Built only when a tracer or a DEBUG logger looks: most requests cost one level check.
    const observe = (): RequestObservation | undefined => {
      if (!isObserving(logger, tracing)) return undefined;
      const request: ObservedRequest = {
        method,
        params,
        id,
        principal,
        transport: this.transport,
        era: this.era,
        protocolVersion: this.protocolVersion,
        carrier: options.carrier,
      };
      return observeRequest(logger, tracing, request);
    };
    let observed: RequestObservation | undefined;
    try {
      const envelope = this.route(method, params);
      era = this.era ?? 'legacy';
      observed = observe();
      const handler = findMethod(era, method);
      if (!handler) throw methodNotFound(method);
      const sink = options.sink ?? this.send;
      const rc: RequestContext = {
        session: this,
        principal,
        id,
        method,
        params,
        era,
        envelope,
        cancellation,
        ownStream: options.sink !== undefined,
        notify: (msg) => {
          if (!cancellation.aborted) sink?.(msg);
        },
      };
      const result = observed ? await observed.run(async () => handler(rc)) : await handler(rc);
      // A cancelled request gets no response, whatever the handler made of the abort.
      if (cancellation.aborted) {
        observed?.end('cancelled');
        return undefined;
      }
      observed?.end(resultOutcome(result), errorCodeOf(result));
      return resultResponse(id, era === 'modern' ? this.stamp(method, result) : result);
    } catch (error) {
      if (cancellation.aborted || error instanceof CancelledError) {
        observed?.end('cancelled');
        return undefined;
      }
      const wire = this.toErrorObject(error, method, params, era);
      // A request refused before routing (a bad envelope) is observed from here.
      (observed ?? observe())?.end(requestOutcome(error), wire.code);
      return errorResponse(id, wire);
    } finally {
      stopForwarding?.();
      running.splice(running.indexOf(cancellation), 1);
      if (running.length === 0) this.inflight.delete(id);
    }
  }

  /**
   * The era rules (MCP.md 6.4): the first request decides; afterwards the other era's requests are
   * refused. Returns the envelope of a 2026 request.
   */
  private route(method: string, params: Record<string, unknown>): Envelope | undefined {
    const enveloped = hasEnvelope(params);
    if (method === 'initialize') {
      // A 2026 request for initialize asks for a method that era does not have.
      if (enveloped) throw methodNotFound(method);
      if (this.era === 'modern') {
        throw new ProtocolError(
          ErrorCode.UnsupportedProtocolVersion,
          `Unsupported protocol version: initialize is not part of ${MODERN_VERSION}`,
          { data: { supported: [MODERN_VERSION] } },
        );
      }
      if (this.initResponded) throw invalidRequest('Session already initialized');
      this.era = 'legacy';
      return undefined;
    }
    if (enveloped) {
      if (this.era === 'legacy') {
        throw invalidRequest(
          'This connection uses the initialize handshake; the 2026-07-28 request envelope is not accepted on it',
        );
      }
      const envelope = readEnvelope(params);
      this.era = 'modern';
      this.protocolVersion = envelope.protocolVersion;
      this.clientInfo = envelope.clientInfo;
      this.clientCapabilities = envelope.clientCapabilities;
      return envelope;
    }
    if (this.era === 'modern') {
      // Same check as a partial envelope: tells the client exactly what is missing.
      readEnvelope(params);
    }
    if (!this.initResponded && method !== 'ping') {
      throw invalidRequest('Server not initialized: send initialize first');
    }
    return undefined;
  }

  /** 2026 results: `resultType`, cache hints for cacheable methods, server info in `_meta`. */
  private stamp(method: string, result: Record<string, unknown>): Record<string, unknown> {
    // Results are fresh objects built for this response, so they are stamped in place.
    const { server } = this;
    // An `input_required` result keeps its type; everything else is complete.
    if (result.resultType === undefined) result.resultType = 'complete';
    if (CACHEABLE_METHODS.has(method)) {
      result.ttlMs = server.cacheTtlMs;
      result.cacheScope = server.cacheScope;
    }
    // A copy (the result's `_meta` may be a cached result's own), by Object.assign: V8 makes an
    // object copied by spread slow to extend, about 1 µs for the key added next.
    const meta: Record<string, unknown> = isObject(result._meta) ? Object.assign({}, result._meta) : {};
    meta[MetaKeys.serverInfo] = server.serverInfo();
    result._meta = meta;
    return result;
  }

  private toErrorObject(
    error: unknown,
    method: string,
    params: Record<string, unknown>,
    era: Era,
  ): JsonRpcErrorObject {
    if (isMcpLayerError(error)) {
      const wire = error.toJsonRpc();
      if (method === 'resources/read' && error instanceof NotFoundError) {
        // Resource not found: -32002 on the handshake era, -32602 on 2026-07-28.
        const code = era === 'modern' ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
        return { code, message: wire.message, data: wire.data ?? { uri: params.uri } };
      }
      return wire;
    }
    this.server.layer.logger.error({ err: error, method }, 'request failed');
    return { code: ErrorCode.InternalError, message: 'Internal error' };
  }

  /**
   * The session's own channel to its client (stdio, or an HTTP session's GET stream and outbox),
   * for messages that outlive the request they belong to, such as a task's questions; undefined
   * for a one-shot session.
   */
  get channel(): Send | undefined {
    return this.closed ? undefined : this.send;
  }

  /** Whether a message sent on `channel` reaches the client now, not just a queue. */
  get reachesClient(): boolean {
    if (this.closed || !this.send) return false;
    return this.reachable ? this.reachable() : true;
  }

  /** A change notification for this session (handshake era): list changes, subscribed updates. */
  emitChange(event: ChangeEvent): void {
    if (this.closed || this.era !== 'legacy' || !this.initialized || !this.send) return;
    if (event.kind === 'resource') {
      const uri = this.subscriptions.clientUri(event.uri);
      if (uri === undefined) return;
      this.send({ jsonrpc: '2.0', method: event.method, params: { uri } });
      return;
    }
    this.send({ jsonrpc: '2.0', method: event.method });
  }

  /** Changes were missed: every list change, and an update of each resource subscribed to. */
  emitEverything(): void {
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      for (const event of expandChange(kind, undefined)) this.emitChange(event);
    }
    for (const real of Object.keys(this.subscriptions.entries())) {
      for (const event of expandChange('resource', real)) this.emitChange(event);
    }
  }

  /** End this session's listen streams gracefully (their requests get a final result). */
  endListens(): void {
    for (const stream of [...this.server.listens]) if (stream.session === this) stream.end();
  }

  /** Cancel everything in flight (no responses follow). */
  cancelAll(): void {
    for (const id of [...this.inflight.keys()]) this.cancel(id);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.endListens();
    this.cancelAll();
    this.outgoing.rejectAll();
    this.server.unregister(this);
  }
}
