/**
 * The README's traces snippet (region `tracing`). Type-checked with the package; it exports to
 * an OTLP collector, so test/observability.test.ts checks `startTracing` with an exporter of its own.
 */
// #region tracing
import { serve, startTracing } from '@cloudg/server';
// #endregion tracing

export async function traced(server: Parameters<typeof serve>[0]): Promise<void> {
  // #region tracing
  const traces = await startTracing('otlp'); // or 'console', or a SpanExporter of your own
  try {
    await serve(server, { transport: 'http', tracing: traces.tracing });
  } finally {
    await traces.shutdown(); // export what is still buffered
  }
  // #endregion tracing
}
