/**
 * `serve` over HTTP as an operator watches it: the Prometheus scrape (parsed with a Prometheus
 * text parser) with the layer's calls and the process metrics, the readiness check, and spans
 * exported in memory with the parent from `traceparent`.
 */
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLayerFromOptions,
  type ServeOptions,
  serve,
  startTracing,
  traceExporterFrom,
} from '../src/index.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');

let stop: AbortController | undefined;
let done: Promise<void> | undefined;
afterEach(async () => {
  stop?.abort();
  await done;
  stop = undefined;
  done = undefined;
});

async function start(options: ServeOptions = {}): Promise<string> {
  const server = await createLayerFromOptions({ policy: 'standard', datasets: [`prod=${MAP}`] });
  stop = new AbortController();
  let url = '';
  done = serve(server, {
    transport: 'http',
    port: 0,
    signal: stop.signal,
    handleSignals: false,
    authTokens: ['s3cret:analyst:alice'],
    announce: () => {},
    onListening: (address) => {
      url = address.url;
    },
    ...options,
  });
  await new Promise<void>((resolve) => {
    const tick = () => (url ? resolve() : setTimeout(tick, 5));
    tick();
  });
  return url;
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One 2026-07-28 request (no session needed). */
async function call(url: string, method: string, params: Record<string, unknown>, headers = {}) {
  const name =
    typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: 'Bearer s3cret',
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('serve --transport http, observed', () => {
  it('/metrics: the layer calls by method, registered name and outcome, and the process metrics', async () => {
    const url = await start();
    expect((await call(url, 'tools/call', { name: 'find_assets', arguments: { limit: 1 } })).status).toBe(
      200,
    );
    await call(url, 'tools/call', { name: 'get_asset', arguments: { ref: 'bastoin' } });
    await call(url, 'resources/read', { uri: 'cloudg://assets/bastion' });

    const metricsUrl = new URL('/metrics', url);
    expect((await fetch(metricsUrl)).status).toBe(401);
    const scrape = await fetch(metricsUrl, { headers: { authorization: 'Bearer s3cret' } });
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    const families = parsePrometheusTextFormat(text);
    const calls = families.find((f) => f.name === 'cloudg_mcp_calls_total');
    expect(calls?.type).toBe('COUNTER');
    const labels = calls!.metrics.map((m) => m.labels);
    expect(labels).toContainEqual({ method: 'tools/call', name: 'find_assets', outcome: 'ok' });
    // The asset asked for does not exist: the outcome the audit log would record.
    expect(labels).toContainEqual({ method: 'tools/call', name: 'get_asset', outcome: 'not_found' });
    // A read is named by the server's URI template, not by the asset the caller asked for.
    expect(labels).toContainEqual({
      method: 'resources/read',
      name: 'cloudg://assets/{+ref}',
      outcome: 'ok',
    });
    expect(families.find((f) => f.name === 'cloudg_mcp_call_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(families.find((f) => f.name === 'cloudg_http_requests_total')?.type).toBe('COUNTER');
    expect(families.some((f) => f.name === 'process_cpu_user_seconds_total')).toBe(true);

    const values = families.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
    for (const value of values) expect(value).not.toMatch(/alice|bastion|bastoin|s3cret/);
  });

  it('--public-metrics opens /metrics (and only it) to a scraper without a token', async () => {
    const url = await start({ publicMetrics: true });
    expect((await fetch(new URL('/metrics', url))).status).toBe(200);
    const mcp = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(401);
  });

  it('/readyz answers ready once serving, without a token', async () => {
    const url = await start();
    const ready = await fetch(new URL('/readyz', url));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('traces each request to the configured exporter, child of the caller traceparent', async () => {
    const exporter = new InMemorySpanExporter();
    const traces = await startTracing(exporter);
    const url = await start({ tracing: traces.tracing });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    await call(
      url,
      'tools/call',
      { name: 'find_assets', arguments: { limit: 1 } },
      {
        traceparent: `00-${traceId}-b7ad6b7169203331-01`,
      },
    );
    const [span] = exporter.getFinishedSpans();
    await traces.shutdown();
    expect(span?.name).toBe('tools/call find_assets');
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span?.attributes).toMatchObject({
      'gen_ai.tool.name': 'find_assets',
      'cloudg.principal.id': 'alice',
      'cloudg.outcome': 'ok',
    });
    expect(span?.resource.attributes['service.name']).toBe('cloudg-mcp');
  });

  it('tracing is off unless asked for: the option, else OTEL_TRACES_EXPORTER naming otlp or console', () => {
    expect(traceExporterFrom(undefined, {})).toBe('none');
    expect(traceExporterFrom(undefined, { OTEL_TRACES_EXPORTER: 'otlp' })).toBe('otlp');
    expect(traceExporterFrom(undefined, { OTEL_TRACES_EXPORTER: 'zipkin' })).toBe('none');
    expect(traceExporterFrom('console', { OTEL_TRACES_EXPORTER: 'otlp' })).toBe('console');
    expect(traceExporterFrom('none', { OTEL_TRACES_EXPORTER: 'otlp' })).toBe('none');
  });
});

describe('prettyJson', () => {
  it('indents the text block of tool results; compact otherwise', async () => {
    const compact = await createLayerFromOptions({ policy: 'open', datasets: [`prod=${MAP}`] });
    const pretty = await createLayerFromOptions({
      policy: 'open',
      datasets: [`prod=${MAP}`],
      prettyJson: true,
    });
    const text = async (server: typeof compact) =>
      ((await server.layer.callTool('count_assets', {})).content[0] as { text: string }).text;
    expect(await text(compact)).toMatch(/^\{"dataset":"prod",/);
    expect(await text(pretty)).toMatch(/^\{\n {2}"dataset": "prod",/);
    compact.close();
    pretty.close();
  });
});
