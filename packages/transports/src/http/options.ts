/** Options of the native HTTP server, with their documented defaults. */

import type { OAuthOptions } from '../auth/oauth/options.js';
import type { PrincipalResolver } from '../auth/principal-resolver.js';
import type { TokenAuth } from '../auth/token-auth.js';
import type { ProtocolOptions } from '../protocol/server.js';
import type { DependencyChecks } from './dependency-checks.js';
import type { LegacySseRelay } from './legacy-sse-relay.js';
import type { HttpMetricsOptions } from './metrics.js';
import type { SharedSessionStore } from './shared-session-store.js';

export interface HttpServerOptions extends ProtocolOptions {
  /** Bind address. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default 8765. */
  port?: number;
  /** The Streamable HTTP endpoint. Default `/mcp`. */
  path?: string;
  /** `sse` also serves the deprecated 2024-11-05 HTTP+SSE endpoints. Default `http`. */
  transport?: 'http' | 'sse';
  ssePath?: string;
  messagePath?: string;
  /** Liveness: `{"status": "ok"}` without a token. Default `/healthz`. */
  healthPath?: string;
  /**
   * Readiness, without a token: 200 `{"status": "ready"}` while the server takes requests, 503
   * (`starting` until `ready` says so, `stopping` once closing begins). Default `/readyz`.
   */
  readyPath?: string;
  /** Whether the application is ready (datasets loaded, say); asked on each readiness check. Default always. */
  ready?: () => boolean;
  /**
   * Probes of services the server depends on (Redis, say), reported by the health check and
   * required by the readiness check. None by default.
   */
  dependencies?: DependencyChecks;
  /**
   * Prometheus metrics: the server adds its HTTP metrics to `metrics.registry` and serves the
   * whole registry at `metrics.path` (default `/metrics`), behind the bearer token check unless
   * `metrics.public`. Off when absent.
   */
  metrics?: HttpMetricsOptions;
  /** Allowed `Origin` patterns, replacing the loopback default. */
  allowedOrigins?: string[];
  /** Allowed `Host` patterns; turns the Host check on for any bind. */
  allowedHosts?: string[];
  /** Browser origins granted CORS (and so allowed as `Origin`). */
  corsOrigins?: string[];
  /** A ready token table. */
  auth?: TokenAuth;
  /** Token specs `TOKEN[:ROLES[:ID]]`, used when `auth` is not given. */
  authTokens?: string[];
  /** With `authTokens`: refuse requests without a valid token. Default true. */
  authRequired?: boolean;
  /**
   * Accept OAuth access tokens from this issuer (cloudg as a protected resource, docs/sign-in.md).
   * Static tokens keep working beside them; with `oauth` every request needs one or the other.
   */
  oauth?: OAuthOptions;
  principalResolver?: PrincipalResolver;
  /** Answer every POST with JSON, never SSE (except `subscriptions/listen`). */
  jsonResponse?: boolean;
  /** No handshake-era sessions: every request stands alone. */
  stateless?: boolean;
  /** Default 4 MiB. */
  maxBodyBytes?: number;
  /** Default 64 KiB; larger header blocks get 431. */
  maxHeaderBytes?: number;
  /** Default one hour. */
  sessionIdleTimeoutMs?: number;
  /**
   * Handshake-era sessions shared with other replicas behind one address (`RedisSessionStore` of
   * @cloudg/redis): a session opened on one continues on any, its stream is resumable with
   * `Last-Event-ID`, and `maxSessions` and `maxSessionsPerPrincipal` count every replica's
   * sessions. In the process by default. The deprecated HTTP+SSE transport has `legacySseRelay`.
   */
  sessions?: SharedSessionStore;
  /**
   * The deprecated HTTP+SSE transport (`transport: 'sse'`) behind several replicas
   * (`RedisLegacySseRelay` of @cloudg/redis): a session stays on the replica holding its stream,
   * and a POST that reaches another replica is forwarded there. Its sessions then count in the
   * relay's shared cap and per-principal quota (with the 2025 sessions), not in this replica's.
   * In the process by default.
   */
  legacySseRelay?: LegacySseRelay;
  /** Default 1000; more get 503. */
  maxSessions?: number;
  /**
   * Live sessions one principal id may hold. At the quota its least recently used idle session is
   * ended to make room for a new one; with none idle, `initialize` gets 429 (-31029). Default a
   * tenth of `maxSessions` (100), at least 1.
   */
  maxSessionsPerPrincipal?: number;
  /**
   * Requests served at once (POSTs holding a request; `subscriptions/listen` streams and
   * notifications do not count). Others wait their turn. Default 128; 0 for no limit.
   */
  maxInFlightRequests?: number;
  /**
   * How long a request may wait for its turn. One that waited longer is answered at once with 503,
   * `Retry-After: 1` and JSON-RPC -31029 instead of being served late. Default 1000 ms; 0 lets
   * requests wait without limit.
   */
  maxQueueWaitMs?: number;
  /** Interval of `: keepalive` comments on SSE streams. Default 15 s. */
  keepaliveIntervalMs?: number;
  /**
   * A client must send its request headers within this time, and its whole request (headers and
   * body) within `requestTimeoutMs`, or the connection is closed with 408: a client that trickles
   * or never finishes cannot hold connections. Answers may take as long as the tool does.
   * Defaults 10 s and 30 s.
   */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export interface ResolvedHttpOptions {
  host: string;
  port: number;
  path: string;
  legacySse: boolean;
  ssePath: string;
  messagePath: string;
  healthPath: string;
  readyPath: string;
  jsonResponse: boolean;
  stateless: boolean;
  maxBodyBytes: number;
  maxHeaderBytes: number;
  sessionIdleTimeoutMs: number;
  maxSessions: number;
  maxSessionsPerPrincipal: number;
  maxInFlightRequests: number;
  maxQueueWaitMs: number;
  keepaliveIntervalMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  corsOrigins: string[];
}

export const HTTP_DEFAULTS = {
  host: '127.0.0.1',
  port: 8765,
  path: '/mcp',
  ssePath: '/sse',
  messagePath: '/messages/',
  healthPath: '/healthz',
  readyPath: '/readyz',
  maxBodyBytes: 4 * 1024 * 1024,
  maxHeaderBytes: 64 * 1024,
  sessionIdleTimeoutMs: 3600_000,
  maxSessions: 1000,
  maxInFlightRequests: 128,
  maxQueueWaitMs: 1000,
  keepaliveIntervalMs: 15_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
} as const;

function count(value: number, name: string): number {
  if (!(Number.isInteger(value) && value >= 0))
    throw new RangeError(`${name} must be 0 or a positive integer`);
  return value;
}

/** The default per-principal session quota is this fraction of the global cap. */
const PER_PRINCIPAL_SHARE = 10;

export function resolveHttpOptions(options: HttpServerOptions): ResolvedHttpOptions {
  const maxSessions = options.maxSessions ?? HTTP_DEFAULTS.maxSessions;
  return {
    host: options.host ?? HTTP_DEFAULTS.host,
    port: options.port ?? HTTP_DEFAULTS.port,
    path: options.path ?? HTTP_DEFAULTS.path,
    legacySse: options.transport === 'sse',
    ssePath: options.ssePath ?? HTTP_DEFAULTS.ssePath,
    messagePath: options.messagePath ?? HTTP_DEFAULTS.messagePath,
    healthPath: options.healthPath ?? HTTP_DEFAULTS.healthPath,
    readyPath: options.readyPath ?? HTTP_DEFAULTS.readyPath,
    jsonResponse: options.jsonResponse ?? false,
    stateless: options.stateless ?? false,
    maxBodyBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
    maxHeaderBytes: options.maxHeaderBytes ?? HTTP_DEFAULTS.maxHeaderBytes,
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs ?? HTTP_DEFAULTS.sessionIdleTimeoutMs,
    maxSessions,
    maxSessionsPerPrincipal:
      options.maxSessionsPerPrincipal ?? Math.max(1, Math.floor(maxSessions / PER_PRINCIPAL_SHARE)),
    maxInFlightRequests: count(
      options.maxInFlightRequests ?? HTTP_DEFAULTS.maxInFlightRequests,
      'maxInFlightRequests',
    ),
    maxQueueWaitMs: count(options.maxQueueWaitMs ?? HTTP_DEFAULTS.maxQueueWaitMs, 'maxQueueWaitMs'),
    keepaliveIntervalMs: options.keepaliveIntervalMs ?? HTTP_DEFAULTS.keepaliveIntervalMs,
    headersTimeoutMs: options.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs,
    corsOrigins: [...(options.corsOrigins ?? [])],
  };
}
