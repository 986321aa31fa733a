/**
 * The Prometheus registry `cloudg-mcp serve` exposes at `/metrics`: the process's default metrics
 * and the layer's calls as the metrics middleware counts them. Label values are registered names
 * (a tool, a prompt, a resource's URI or URI template), MCP methods and outcomes: never a
 * principal id or a URI the caller wrote, which could name an asset.
 */
import type { AnySpec, MetricsMiddleware } from '@cloudg/core';
import { requestOutcome } from '@cloudg/transports';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

const METHOD_OF_KIND = {
  tool: 'tools/call',
  resource: 'resources/read',
  prompt: 'prompts/get',
  completion: 'completion/complete',
} as const;

/** Seconds: tools answer in milliseconds to minutes (live collection). */
const CALL_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** The primitive's own name: a tool or prompt name, a resource's URI or its URI template. */
export function primitiveLabel(spec: AnySpec<unknown>): string {
  if (spec.kind === 'resource') return spec.uri;
  if (spec.kind === 'template') return spec.uriTemplate;
  return spec.name;
}

/**
 * A registry with the Node process's default metrics and `cloudg_mcp_calls_total` and
 * `cloudg_mcp_call_duration_seconds`, fed by `metrics` from now on.
 */
export function createPrometheusRegistry(metrics: MetricsMiddleware): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: 'cloudg_mcp_calls_total',
    help: 'Tool calls, resource reads, prompts and completions that reached the layer, by outcome.',
    labelNames: ['method', 'name', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'cloudg_mcp_call_duration_seconds',
    help: 'Time the layer took for a call, policy and transforms included.',
    labelNames: ['method', 'name'] as const,
    buckets: CALL_BUCKETS,
    registers: [registry],
  });
  metrics.observe((call) => {
    const labels = { method: METHOD_OF_KIND[call.kind], name: primitiveLabel(call.spec) };
    // The audit log's outcomes: denied and rate_limited say more than "rejected".
    const outcome = call.error === undefined ? call.outcome : requestOutcome(call.error);
    calls.inc({ ...labels, outcome });
    duration.observe(labels, call.durationMs / 1000);
  });
  return registry;
}
