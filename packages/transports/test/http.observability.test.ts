/**
 * What an operator watches on the HTTP server: the Prometheus scrape (parsed as Prometheus would),
 * the readiness check, and OpenTelemetry spans whose parent comes from `traceparent`.
 */
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServerOptions, type RunningHttpServer, serveHttp } from '../src/index.js';
import { send } from './support/http.js';
import { initialize, initialized, modern, req } from './support/rpc.js';
import { buildLayer } from './support/test-layer.js';

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: HttpServerOptions = {}) {
  running = await serveHttp(buildLayer(), { port: 0, authTokens: ['s3cret:analyst:alice'], ...options });
  return running.port;
}

const AUTH = { authorization: 'Bearer s3cret' };
const JSON_ACCEPT = { ...AUTH, accept: 'application/json, text/event-stream' };

/** A handshake-era session: initialize, initialized; returns its headers. */
async function openSession(port: number, extra: Record<string, string> = {}) {
  const init = await send(port, { headers: { ...JSON_ACCEPT, ...extra }, body: initialize() });
  const headers = { ...JSON_ACCEPT, ...extra, 'mcp-session-id': String(init.headers['mcp-session-id']) };
  await send(port, { headers, body: initialized });
  return headers;
}

function family(families: PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no ${name} in the scrape`);
  return found;
}

describe('GET /metrics', () => {
  it('is a Prometheus text scrape behind the token check, with HTTP methods and status codes as labels', async () => {
    const port = await start({ metrics: { registry: new Registry() } });
    const headers = await openSession(port);
    await send(port, { headers, body: req(2, 'tools/call', { name: 'echo', arguments: { text: 'web-1' } }) });
    await send(port, { headers: { accept: 'application/json' }, body: initialize() });

    expect((await send(port, { method: 'GET', path: '/metrics' })).status).toBe(401);
    const scrape = await send(port, { method: 'GET', path: '/metrics', headers: AUTH });
    expect(scrape.status).toBe(200);
    expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheusTextFormat(scrape.text);

    const requests = family(families, 'cloudg_http_requests_total');
    expect(requests.type).toBe('COUNTER');
    const count = (method: string, status: string) =>
      Number(
        requests.metrics.find((m) => m.labels?.method === method && m.labels.status === status)?.value ?? 0,
      );
    expect(count('POST', '200')).toBeGreaterThanOrEqual(2);
    expect(count('POST', '202')).toBe(1);
    expect(count('POST', '401')).toBe(1);
    expect(count('GET', '401')).toBe(1);
    expect(family(families, 'cloudg_http_request_duration_seconds').type).toBe('HISTOGRAM');
    expect(family(families, 'cloudg_http_sessions').metrics[0]?.value).toBe('1');
    expect(family(families, 'cloudg_http_requests_in_flight').type).toBe('GAUGE');

    // Label values are methods and status codes: no principal, argument or session id.
    const values = families.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
    for (const secret of ['alice', 'web-1', 's3cret', headers['mcp-session-id']]) {
      expect(values).not.toContain(secret);
      expect(scrape.text).not.toContain(secret);
    }
  });

  it('serves everything in the application registry, and without a token when made public', async () => {
    const registry = new Registry();
    registry.setDefaultLabels({});
    const port = await start({ metrics: { registry, public: true, path: '/prom' } });
    const scrape = await send(port, { method: 'GET', path: '/prom' });
    expect(scrape.status).toBe(200);
    expect(family(parsePrometheusTextFormat(scrape.text), 'cloudg_http_requests_total').type).toBe('COUNTER');
    expect((await send(port, { method: 'POST', path: '/prom', body: {} })).status).toBe(405);
    // Public does not open the MCP endpoint.
    expect((await send(port, { headers: { accept: 'application/json' }, body: initialize() })).status).toBe(
      401,
    );
  });

  it('is not served unless asked for', async () => {
    const port = await start();
    expect((await send(port, { method: 'GET', path: '/metrics', headers: AUTH })).status).toBe(404);
  });
});

describe('GET /readyz', () => {
  it('answers without a token: ready while serving, 503 stopping once shutdown begins', async () => {
    const port = await start();
    const ready = await send(port, { method: 'GET', path: '/readyz' });
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    running!.server.markStopping();
    const stopping = await send(port, { method: 'GET', path: '/readyz' });
    expect(stopping.status).toBe(503);
    expect(stopping.json()).toEqual({ status: 'stopping' });
    expect(stopping.headers['retry-after']).toBe('1');
    // Liveness is unchanged: the process is fine, it just wants no new work.
    expect((await send(port, { method: 'GET', path: '/healthz' })).status).toBe(200);
  });

  it('says starting until the application reports ready', async () => {
    let loaded = false;
    const port = await start({ ready: () => loaded });
    const starting = await send(port, { method: 'GET', path: '/readyz' });
    expect(starting.status).toBe(503);
    expect(starting.json()).toEqual({ status: 'starting' });
    loaded = true;
    expect((await send(port, { method: 'GET', path: '/readyz' })).status).toBe(200);
  });
});

describe('OpenTelemetry traces', () => {
  function tracing() {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    return {
      exporter,
      options: { tracer: provider.getTracer('cloudg-test'), propagator: new W3CTraceContextPropagator() },
    };
  }
  const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
  const PARENT_ID = '00f067aa0ba902b7';

  it('a span per request, child of the traceparent header, with tool, principal and outcome', async () => {
    const { exporter, options } = tracing();
    const port = await start({ tracing: options });
    const headers = await openSession(port, { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
    await send(port, { headers, body: req(2, 'tools/call', { name: 'echo', arguments: { text: 'web-1' } }) });
    await send(port, { headers, body: req(3, 'tools/call', { name: 'boom' }) });
    await send(port, { headers, body: req(4, 'tools/call', { name: 'no_such_tool' }) });

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual([
      'initialize',
      'tools/call echo',
      'tools/call boom',
      'tools/call no_such_tool',
    ]);
    for (const span of spans) {
      expect(span.spanContext().traceId).toBe(TRACE_ID);
      expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
      expect(span.parentSpanContext?.isRemote).toBe(true);
    }
    const [, echo, boom, unknown] = spans;
    expect(echo!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'cloudg.principal.id': 'alice',
      'cloudg.outcome': 'ok',
      'jsonrpc.request.id': '2',
    });
    expect(echo!.status.code).toBe(0);
    expect(boom!.attributes['cloudg.outcome']).toBe('error');
    expect(boom!.status.code).toBe(2);
    expect(unknown!.attributes['cloudg.outcome']).toBe('not_found');
    // Argument values never reach a span.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('web-1');
  });

  it('takes the parent from _meta in the 2026 era, before the header', async () => {
    const { exporter, options } = tracing();
    const port = await start({ tracing: options });
    const metaParent = 'b7ad6b7169203331';
    const headers = {
      ...JSON_ACCEPT,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
      traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`,
    };
    const answer = await send(port, {
      headers,
      body: modern(
        7,
        'tools/call',
        { name: 'echo', arguments: { text: 'x' } },
        {
          traceparent: `00-${TRACE_ID}-${metaParent}-01`,
          tracestate: 'vendor=value',
        },
      ),
    });
    expect(answer.status).toBe(200);
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('tools/call echo');
    expect(span!.spanContext().traceId).toBe(TRACE_ID);
    expect(span!.parentSpanContext?.spanId).toBe(metaParent);
    expect(span!.attributes).toMatchObject({ 'mcp.protocol.version': '2026-07-28', 'cloudg.outcome': 'ok' });
  });

  it('starts a new trace when the request carries no context', async () => {
    const { exporter, options } = tracing();
    const port = await start({ tracing: options });
    await openSession(port);
    const [span] = exporter.getFinishedSpans();
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
