/**
 * Prometheus metrics of the HTTP server, served at `/metrics` from a prom-client registry the
 * application owns (and may fill with its own metrics). Label values are HTTP methods and status
 * codes only: no principal ids, no paths or URIs, nothing a caller chose.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { SERVER_HEADER } from './responses.js';

export interface HttpMetricsOptions {
  /** Where the metrics live; `/metrics` serves everything in it. */
  registry: Registry;
  /** Default `/metrics`. */
  path?: string;
  /**
   * Serve `/metrics` without a bearer token even when the server requires one (a scraper on a
   * trusted network). Default false: the same token check as the MCP endpoint.
   */
  public?: boolean;
}

/** What the gauges read when the registry is scraped. */
export interface HttpMetricSources {
  sessions: () => number;
  inFlight: () => number;
  waiting: () => number;
}

const KNOWN_METHODS = new Set(['GET', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PUT', 'PATCH']);

/** Seconds, from a quick JSON answer to a long tool call streamed over SSE. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** A metric of this registry by name, or a new one (two servers may share a registry). */
function metric<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

export class HttpMetrics {
  readonly registry: Registry;
  readonly path: string;
  readonly public: boolean;
  private readonly requests: Counter<'method' | 'status'>;
  private readonly duration: Histogram<'method'>;

  constructor(options: HttpMetricsOptions, sources: HttpMetricSources) {
    const registry = options.registry;
    this.registry = registry;
    this.path = options.path ?? '/metrics';
    this.public = options.public ?? false;
    this.requests = metric(
      registry,
      'cloudg_http_requests_total',
      () =>
        new Counter({
          name: 'cloudg_http_requests_total',
          help: 'HTTP requests answered, by method and status code.',
          labelNames: ['method', 'status'] as const,
          registers: [registry],
        }),
    );
    this.duration = metric(
      registry,
      'cloudg_http_request_duration_seconds',
      () =>
        new Histogram({
          name: 'cloudg_http_request_duration_seconds',
          help: 'Time from a request arriving to its answer ending, by method (SSE streams included).',
          labelNames: ['method'] as const,
          buckets: DURATION_BUCKETS,
          registers: [registry],
        }),
    );
    const gauge = (name: string, help: string, read: () => number) =>
      metric(
        registry,
        name,
        () =>
          new Gauge({
            name,
            help,
            registers: [registry],
            collect() {
              this.set(read());
            },
          }),
      );
    gauge('cloudg_http_sessions', 'Live handshake-era sessions (Mcp-Session-Id).', sources.sessions);
    gauge('cloudg_http_requests_in_flight', 'MCP requests being served now.', sources.inFlight);
    gauge('cloudg_http_requests_waiting', 'MCP requests waiting for their turn now.', sources.waiting);
  }

  /** Count `req` once its answer ends (or the connection drops). */
  track(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const method = KNOWN_METHODS.has(req.method ?? '') ? (req.method as string) : 'OTHER';
    res.once('close', () => {
      this.requests.inc({ method, status: String(res.statusCode) });
      this.duration.observe({ method }, (performance.now() - started) / 1000);
    });
  }

  /** Answer a scrape with the registry in the Prometheus text format. */
  async answer(res: ServerResponse): Promise<void> {
    const body = await this.registry.metrics();
    res.writeHead(200, {
      Server: SERVER_HEADER,
      'Content-Type': this.registry.contentType,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(body);
  }
}
