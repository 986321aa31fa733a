/**
 * The README's metrics and traces snippet (region `observability`): a prom-client registry and
 * an OpenTelemetry tracer handed to the HTTP server. Any SpanExporter works (the OTLP one of
 * `@opentelemetry/exporter-trace-otlp-http` in production); this one keeps the spans in memory so
 * that test/examples.test.ts can run the file and look at them.
 */
import type { Layer } from '@cloudg/core';
// #region observability
import { serveHttp } from '@cloudg/transports';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Registry } from 'prom-client';
// #endregion observability

export async function observability(layer: Layer) {
  // #region observability
  const exporter = new InMemorySpanExporter(); // or new OTLPTraceExporter(), a BatchSpanProcessor...
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const registry = new Registry();
  const server = await serveHttp(layer, {
    port: 0,
    authTokens: ['s3cret:analyst:alice'],
    metrics: { registry },
    tracing: { tracer: provider.getTracer('my-app'), propagator: new W3CTraceContextPropagator() },
  });
  // #endregion observability
  return { server, exporter, registry };
}
