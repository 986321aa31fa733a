// @cloudg/server: compose a cloudg layer from options and serve it.
export { type BuildServerOptions, type BuiltServer, buildServer } from './build-server.js';
export { createLayerFromOptions, type ServerLayer, type ServerLayerOptions } from './create-layer.js';
export { type DatasetSpec, DatasetSpecError, parseDatasetSpec } from './dataset-spec.js';
export {
  AVAILABLE_FLAVORS,
  checkFlavorCombination,
  FLAVOR_NAMES,
  type Flavor,
  type FlavorSensitiveOptions,
  type ResolvedFlavor,
  resolveFlavor,
  ServeOptionsError,
} from './flavors.js';
export { createPrometheusRegistry } from './prometheus.js';
export { READ_ONLY_DROPPED_CAPABILITIES, readOnlyRegistry } from './read-only.js';
export {
  checkServeOptions,
  LOG_LEVELS,
  type ServeOptions,
  serve,
  TRANSPORTS,
  type TransportName,
} from './serve.js';
export { connectSharedState, REDIS_URL_ENV, type RedisSharedState, RedisStartError } from './shared-state.js';
export {
  PROTOCOL_FD_ENV,
  protocolFdFrom,
  type RelaunchOptions,
  relaunchIsolated,
  STDIO_ISOLATION_ENV,
  takeProtocolFd,
  wantsStdioIsolation,
} from './stdio-isolation.js';
export {
  type ServerTracing,
  type StartTracingOptions,
  startTracing,
  TRACE_EXPORTERS,
  type TraceExporterName,
  traceExporterFrom,
} from './tracing.js';
export { SERVER_VERSION } from './version.js';
