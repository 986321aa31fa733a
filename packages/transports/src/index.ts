// @cloudg/transports: MCP on the wire for a cloudg layer. Native stdio and Streamable HTTP
// servers for both protocol eras, sessions, listen streams, auth, the Origin/Host guard, paging.
// The public API is what serves a layer, authenticates callers and writes another transport
// over the protocol engine; framing, header decoding and stdout protection are internal.
// `api-report.md` lists every name; a test fails when this file and the report disagree.

export { AuthConfigError } from './auth/errors.js';
export type { ProtectedResourceMetadata } from './auth/oauth/metadata.js';
export type { OAuthClaimMapping, OAuthIntrospectionOptions, OAuthOptions } from './auth/oauth/options.js';
export {
  type AccessTokenInfo,
  defaultPrincipalResolver,
  type PrincipalResolver,
  RequestInfo,
  type RequestInfoInit,
  resolvePrincipal,
} from './auth/principal-resolver.js';
export { TokenAuth, type TokenAuthOptions, type TokenValue } from './auth/token-auth.js';
export { parseTokenSpec, type TokenSpec } from './auth/token-spec.js';
export type { AdmissionOptions, RequestAdmission } from './http/admission.js';
export type { DependencyCheck, DependencyChecks } from './http/dependency-checks.js';
export {
  type GuardRejection,
  isLoopbackAddress,
  OriginHostGuard,
  type OriginHostGuardOptions,
} from './http/host-header-guard.js';
export {
  type BoundAddress,
  createHttpServer,
  McpHttpServer,
  type RunningHttpServer,
  serveHttp,
} from './http/http-server.js';
export type {
  LegacySseHolder,
  LegacySsePost,
  LegacySsePrincipal,
  LegacySseQuota,
  LegacySseRelay,
} from './http/legacy-sse-relay.js';
export type { HttpMetrics, HttpMetricsOptions } from './http/metrics.js';
export { createMcpRequestHandler, type McpRequestHandler, type MountOptions } from './http/mount.js';
export { HTTP_DEFAULTS, type HttpServerOptions } from './http/options.js';
export type {
  SharedSessionAdmission,
  SharedSessionChange,
  SharedSessionClaim,
  SharedSessionEvent,
  SharedSessionLimits,
  SharedSessionSignal,
  SharedSessionState,
  SharedSessionStore,
} from './http/shared-session-store.js';
export { ProtocolError } from './jsonrpc/errors.js';
export type {
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
  RequestId,
} from './jsonrpc/messages.js';
export { decodeCursor, encodeCursor, type ListKind, paginate } from './paging/cursor.js';
export { DEFAULT_MAX_BATCH_ITEMS, DEFAULT_MAX_BATCH_RESPONSE_BYTES } from './protocol/batch-limits.js';
export type { ChangeFanout } from './protocol/change-fanout.js';
export { MetaKeys } from './protocol/envelope.js';
export {
  type RequestOutcome,
  requestOutcome,
  type TraceCarrier,
  type TracingOptions,
} from './protocol/observe.js';
export { type CacheScope, McpProtocolServer, type ProtocolOptions } from './protocol/server.js';
export {
  type HandleOptions,
  type HandleResult,
  type Send,
  Session,
  type SessionInit,
  type SessionRelay,
  type TransportKind,
} from './protocol/session.js';
export {
  BATCH_VERSIONS,
  DEFAULT_HTTP_VERSION,
  HANDSHAKE_VERSIONS,
  LATEST_HANDSHAKE_VERSION,
  MODERN_VERSION,
  MODERN_VERSIONS,
  SUPPORTED_VERSIONS,
} from './protocol/versions.js';
export { type StdioOptions, serveStdio } from './stdio/serve-stdio.js';
