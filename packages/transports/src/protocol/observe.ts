/**
 * What an operator sees of each MCP request: a DEBUG log line and, when tracing is configured, an
 * OpenTelemetry span. Both carry the method, the tool or prompt name, the principal id, the
 * outcome and the duration, never argument values.
 */
import {
  AccessDeniedError,
  type CallOutcome,
  CancelledError,
  isMcpLayerError,
  type Logger,
  NotFoundError,
  type Principal,
  RateLimitedError,
} from '@cloudg/core';
import {
  type Context,
  context as otelContext,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { isObject } from '../jsonrpc/messages.js';
import type { Era } from './versions.js';

/** How a request ended; the audit log's vocabulary (`CallOutcome`). */
export type RequestOutcome = CallOutcome;

/** The outcome of a request that failed with `error`. */
export function requestOutcome(error: unknown): RequestOutcome {
  if (error instanceof NotFoundError) return 'not_found';
  if (error instanceof AccessDeniedError) return 'denied';
  if (error instanceof RateLimitedError) return 'rate_limited';
  if (error instanceof CancelledError) return 'cancelled';
  if (isMcpLayerError(error)) return 'rejected';
  return 'exception';
}

/** The outcome of a request that answered: a tool's error result is `error`. */
export function resultOutcome(result: unknown): RequestOutcome {
  return isObject(result) && result.isError === true ? 'error' : 'ok';
}

/** Where the request was aimed: the tool or prompt name, or the resource URI. */
export interface RequestTarget {
  tool?: string;
  prompt?: string;
  uri?: string;
}

export function requestTarget(method: string, params: Record<string, unknown>): RequestTarget {
  const name = typeof params.name === 'string' ? params.name : undefined;
  if (method === 'tools/call' && name !== undefined) return { tool: name };
  if (method === 'prompts/get' && name !== undefined) return { prompt: name };
  if (method === 'resources/read' && typeof params.uri === 'string') return { uri: params.uri };
  return {};
}

/** HTTP request headers, or any other carrier of W3C trace context. */
export type TraceCarrier = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Tracing for a protocol server: a span per request from this tracer. The parent comes from the
 * request's `params._meta` (`traceparent`, `tracestate`; how 2026-07-28 clients pass it, and any
 * client may) or else from the transport's carrier (HTTP headers), read with the propagator.
 */
export interface TracingOptions {
  tracer: Tracer;
  /** Default: the globally registered propagator (`propagation` of @opentelemetry/api). */
  propagator?: TextMapPropagator;
}

const getter: TextMapGetter<TraceCarrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key] ?? carrier[key.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  },
};

/** The trace context keys of `_meta`, when it holds a `traceparent` string. */
function metaCarrier(params: Record<string, unknown>): TraceCarrier | undefined {
  const meta = params._meta;
  if (!isObject(meta) || typeof meta.traceparent !== 'string') return undefined;
  const carrier: Record<string, string> = { traceparent: meta.traceparent };
  if (typeof meta.tracestate === 'string') carrier.tracestate = meta.tracestate;
  return carrier;
}

function parentContext(
  tracing: TracingOptions,
  params: Record<string, unknown>,
  carrier: TraceCarrier | undefined,
): Context {
  const source = metaCarrier(params) ?? carrier;
  if (!source) return ROOT_CONTEXT;
  return (tracing.propagator ?? propagation).extract(ROOT_CONTEXT, source, getter);
}

/** One request as observed: start it, run the work in its context, end it with the outcome. */
export interface RequestObservation {
  run<T>(work: () => Promise<T>): Promise<T>;
  end(outcome: RequestOutcome, errorCode?: number | string): void;
}

export interface ObservedRequest {
  method: string;
  params: Record<string, unknown>;
  id: string | number;
  principal: Principal;
  transport: string;
  era: Era | undefined;
  protocolVersion: string | undefined;
  carrier: TraceCarrier | undefined;
}

/** Whether anyone looks at requests: a tracer, or the logger at DEBUG. */
export function isObserving(logger: Logger, tracing: TracingOptions | undefined): boolean {
  return tracing !== undefined || logger.isLevelEnabled('debug');
}

/** Start observing a request (call it only when `isObserving`). */
export function observeRequest(
  logger: Logger,
  tracing: TracingOptions | undefined,
  request: ObservedRequest,
): RequestObservation {
  const logging = logger.isLevelEnabled('debug');
  const started = performance.now();
  const target = requestTarget(request.method, request.params);
  let span: Span | undefined;
  let spanContext: Context | undefined;
  if (tracing) {
    const parent = parentContext(tracing, request.params, request.carrier);
    const label = target.tool ?? target.prompt;
    span = tracing.tracer.startSpan(
      label ? `${request.method} ${label}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp.method.name': request.method,
          'jsonrpc.request.id': String(request.id),
          'cloudg.principal.id': request.principal.id,
          'cloudg.transport': request.transport,
          ...(request.protocolVersion ? { 'mcp.protocol.version': request.protocolVersion } : {}),
          ...(target.tool ? { 'gen_ai.tool.name': target.tool } : {}),
          ...(target.prompt ? { 'gen_ai.prompt.name': target.prompt } : {}),
          // A resource URI names an asset: it stays out of traces, like the audit log keeps it out.
        },
      },
      parent,
    );
    spanContext = trace.setSpan(parent, span);
  }
  return {
    run: (work) => (spanContext ? otelContext.with(spanContext, work) : work()),
    end(outcome, errorCode) {
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      if (span) {
        span.setAttribute('cloudg.outcome', outcome);
        if (outcome !== 'ok') {
          span.setAttribute('error.type', errorCode === undefined ? outcome : String(errorCode));
          span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
        }
        span.end();
      }
      if (logging) {
        logger.debug(
          {
            event: 'mcp.request',
            method: request.method,
            ...target,
            principal: request.principal.id,
            outcome,
            ...(errorCode === undefined ? {} : { code: errorCode }),
            duration_ms: durationMs,
            transport: request.transport,
          },
          `${request.method}${target.tool || target.prompt || target.uri ? ` ${target.tool ?? target.prompt ?? target.uri}` : ''} ${outcome}`,
        );
      }
    },
  };
}
