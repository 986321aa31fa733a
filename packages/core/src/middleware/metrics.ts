/**
 * `MetricsMiddleware`: counts calls, errors and rejections and keeps latency per primitive;
 * `registerMetricsResource` serves the snapshot as `cloudg://metrics`.
 */
import type { CallKind } from '../context.js';
import { isMcpLayerError } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { Layer } from '../layer/layer.js';
import { Registry } from '../registry.js';
import { type AnySpec, defineResource, type ResourceSpec } from '../specs/index.js';
import type { AppAgnosticMiddleware } from './app-agnostic.js';
import { isErrorResult, isoUtc, round2 } from './outcome.js';
import type { CallInfo, CallResult, NextFn } from './types.js';

/** How many recent latencies each primitive keeps for its p95. */
export const LATENCY_WINDOW = 256;
export const METRICS_URI = 'cloudg://metrics';

export interface PrimitiveMetrics {
  calls: number;
  errors: number;
  rejected: number;
  /** Mean over every call since the last reset. */
  avg_ms: number;
  /** 95th percentile (nearest rank) over the last 256 calls. */
  p95_ms: number;
  max_ms: number;
  /** UTC, to the second. */
  last_call: string;
}

export interface MetricsSnapshot {
  uptime_seconds: number;
  calls: number;
  /** Error results and unexpected exceptions. */
  errors: number;
  /** Denials, rate limits, other layer errors and cancellations. */
  rejected: number;
  /** Keyed `kind:name` (resources by URI or URI template), in sorted order. */
  by_primitive: Record<string, PrimitiveMetrics>;
}

/** One call as the metrics middleware counted it, for exporters (Prometheus, say) to observe. */
export interface MetricsObservation {
  kind: CallKind;
  /** As in `CallInfo.name`: for resources the URI the caller read, which may name an asset. */
  name: string;
  /** The primitive called: its registered name, URI or URI template never carries caller data. */
  spec: AnySpec<unknown>;
  outcome: 'ok' | 'error' | 'rejected';
  durationMs: number;
  /** What the call threw, when it did. */
  error?: unknown;
}

class PrimitiveStats {
  calls = 0;
  errors = 0;
  rejected = 0;
  totalMs = 0;
  maxMs = 0;
  lastCall = new Date(0);
  /** Ring buffer of the last LATENCY_WINDOW durations; `next` is the slot to overwrite. */
  private readonly window: number[] = [];
  private next = 0;

  add(ms: number): void {
    this.calls += 1;
    this.totalMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
    this.lastCall = new Date();
    if (this.window.length < LATENCY_WINDOW) this.window.push(ms);
    else this.window[this.next] = ms;
    this.next = (this.next + 1) % LATENCY_WINDOW;
  }

  p95(): number {
    if (this.window.length === 0) return 0;
    const sorted = [...this.window].sort((a, b) => a - b);
    return sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)]!;
  }

  toJSON(): PrimitiveMetrics {
    return {
      calls: this.calls,
      errors: this.errors,
      rejected: this.rejected,
      avg_ms: round2(this.calls > 0 ? this.totalMs / this.calls : 0),
      p95_ms: round2(this.p95()),
      max_ms: round2(this.maxMs),
      last_call: isoUtc(this.lastCall, false),
    };
  }
}

/**
 * The key a call is counted under: `kind:name`, with a resource read counted under the URI or
 * URI template it was served by. The reference keys reads by the URI read, which grows without
 * bound (every asset, every pseudonym, every junk URI a template accepts) and shows one caller's
 * URIs to another.
 */
function primitiveKey<TApp>(info: CallInfo<TApp>): string {
  if (info.kind !== 'resource') return `${info.kind}:${info.name}`;
  const spec = info.spec as { uriTemplate?: string; uri?: string };
  return `resource:${spec.uriTemplate ?? spec.uri ?? info.name}`;
}

export class MetricsMiddleware {
  /** Pass this to the layer (`middleware: [metrics.middleware]` or `layer.use(metrics.middleware)`). */
  readonly middleware: AppAgnosticMiddleware;
  private startedAt = performance.now();
  private calls = 0;
  private errors = 0;
  private rejected = 0;
  private readonly primitives = new Map<string, PrimitiveStats>();
  private readonly observers = new Set<(call: MetricsObservation) => void>();

  constructor() {
    this.middleware = (info, next) => this.handle(info, next);
  }

  /**
   * Hear about every call as it is counted (the Prometheus exporter builds on this); returns a
   * function that stops it. An observer that throws is ignored: counting goes on.
   */
  observe(observer: (call: MetricsObservation) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  private async handle<TApp>(info: CallInfo<TApp>, next: NextFn<TApp>): Promise<CallResult> {
    const started = performance.now();
    let outcome: 'ok' | 'error' | 'rejected' = 'ok';
    let thrown: unknown;
    try {
      const result = await next(info);
      if (isErrorResult(result)) outcome = 'error';
      return result;
    } catch (error) {
      outcome = isMcpLayerError(error) ? 'rejected' : 'error';
      thrown = error;
      throw error;
    } finally {
      const ms = performance.now() - started;
      this.record(primitiveKey(info), ms, outcome);
      if (this.observers.size > 0) this.notify(info, outcome, ms, thrown);
    }
  }

  private notify<TApp>(
    info: CallInfo<TApp>,
    outcome: MetricsObservation['outcome'],
    ms: number,
    error: unknown,
  ) {
    const call: MetricsObservation = {
      kind: info.kind,
      name: info.name,
      spec: info.spec as AnySpec<unknown>,
      outcome,
      durationMs: ms,
      ...(error === undefined ? {} : { error }),
    };
    for (const observer of this.observers) {
      try {
        observer(call);
      } catch {
        // An exporter's failure must not fail the call it measured.
      }
    }
  }

  private record(key: string, ms: number, outcome: 'ok' | 'error' | 'rejected'): void {
    let stats = this.primitives.get(key);
    if (!stats) {
      stats = new PrimitiveStats();
      this.primitives.set(key, stats);
    }
    stats.add(ms);
    this.calls += 1;
    if (outcome === 'error') {
      stats.errors += 1;
      this.errors += 1;
    } else if (outcome === 'rejected') {
      stats.rejected += 1;
      this.rejected += 1;
    }
  }

  /** The figures so far, as plain JSON. */
  snapshot(): MetricsSnapshot {
    const byPrimitive: Record<string, PrimitiveMetrics> = {};
    for (const key of [...this.primitives.keys()].sort())
      byPrimitive[key] = this.primitives.get(key)!.toJSON();
    return {
      uptime_seconds: round2((performance.now() - this.startedAt) / 1000),
      calls: this.calls,
      errors: this.errors,
      rejected: this.rejected,
      by_primitive: byPrimitive,
    };
  }

  /** Forget every count and latency; uptime starts again. */
  reset(): void {
    this.startedAt = performance.now();
    this.calls = 0;
    this.errors = 0;
    this.rejected = 0;
    this.primitives.clear();
  }
}

/** The reference's other name for the same middleware. */
export { MetricsMiddleware as TimingMiddleware };

export interface MetricsResourceOptions {
  uri?: string;
  /** Replace a resource already registered under the URI. Default true. */
  replace?: boolean;
}

/**
 * Serve `metrics.snapshot()` as a JSON resource (category `server`, sensitivity `internal`).
 * Given a layer, the resource goes into the registry the layer serves and listeners hear a
 * `resources` change.
 */
export function registerMetricsResource<TApp>(
  target: Layer<TApp> | Registry<TApp>,
  metrics: { snapshot(): MetricsSnapshot },
  options: MetricsResourceOptions = {},
): ResourceSpec<TApp> {
  const registry = target instanceof Registry ? target : target.registry;
  const spec = defineResource<TApp>({
    uri: options.uri ?? METRICS_URI,
    name: 'metrics',
    title: 'Server metrics',
    description: 'Call counts, errors, rejections and latency per primitive since the server started.',
    mimeType: 'application/json',
    category: 'server',
    sensitivity: 'internal',
    handler: () => metrics.snapshot() as unknown as JsonObject,
  });
  registry.add(spec, { replace: options.replace ?? true });
  if (!(target instanceof Registry)) target.notifyChange('resources');
  return spec;
}
