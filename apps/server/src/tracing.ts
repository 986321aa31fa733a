/**
 * OpenTelemetry tracing for `cloudg-mcp serve`, off unless asked for: `--traces otlp` (or
 * `OTEL_TRACES_EXPORTER=otlp`) sends a span per request to an OTLP/HTTP collector, `console`
 * prints them. The SDK is loaded only then, so a server without tracing does not pay for it.
 * Nothing is registered globally: the tracer and the W3C propagator go to the transport.
 */
import type { TracingOptions } from '@cloudg/transports';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { SERVER_VERSION } from './version.js';

export const TRACE_EXPORTERS = ['otlp', 'console', 'none'] as const;
export type TraceExporterName = (typeof TRACE_EXPORTERS)[number];

/**
 * The exporter to use: the option when given, else `OTEL_TRACES_EXPORTER` when it names one this
 * server has (`otlp` or `console`), else `none`. Unlike an OpenTelemetry SDK's own default, an
 * unset variable means no tracing.
 */
export function traceExporterFrom(option: string | undefined, env: NodeJS.ProcessEnv): TraceExporterName {
  const value = (option ?? env.OTEL_TRACES_EXPORTER ?? 'none').trim().toLowerCase();
  if (option === undefined && !(TRACE_EXPORTERS as readonly string[]).includes(value)) return 'none';
  return value as TraceExporterName;
}

export interface ServerTracing {
  /** For `serveHttp` / `serveStdio` (`ServeOptions.tracing`). */
  tracing: TracingOptions;
  /** Export what is still buffered and stop. */
  shutdown(): Promise<void>;
}

export interface StartTracingOptions {
  /** `service.name` of the spans. Default `OTEL_SERVICE_NAME`, else `cloudg-mcp`. */
  serviceName?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * A tracer provider exporting to `otlp` (batched; endpoint and headers from the standard
 * `OTEL_EXPORTER_OTLP_*` variables), `console` or an exporter of your own (each span as it ends).
 */
export async function startTracing(
  exporter: 'otlp' | 'console' | SpanExporter,
  options: StartTracingOptions = {},
): Promise<ServerTracing> {
  const env = options.env ?? process.env;
  const [sdk, { W3CTraceContextPropagator }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  let processor: InstanceType<typeof sdk.SimpleSpanProcessor> | InstanceType<typeof sdk.BatchSpanProcessor>;
  if (exporter === 'otlp') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processor = new sdk.BatchSpanProcessor(new OTLPTraceExporter());
  } else if (exporter === 'console') {
    processor = new sdk.SimpleSpanProcessor(new sdk.ConsoleSpanExporter());
  } else {
    processor = new sdk.SimpleSpanProcessor(exporter);
  }
  const provider = new sdk.BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName ?? env.OTEL_SERVICE_NAME ?? 'cloudg-mcp',
      'service.version': SERVER_VERSION,
    }),
    spanProcessors: [processor],
  });
  return {
    tracing: {
      tracer: provider.getTracer('@cloudg/server', SERVER_VERSION),
      propagator: new W3CTraceContextPropagator(),
    },
    shutdown: () => provider.shutdown(),
  };
}
