/**
 * The native Streamable HTTP server on `node:http` (MCP.md 6.2). Every request passes the checks
 * of the 6.2 table in order, and the first that fails answers: Host, Origin, preflight, health,
 * bearer token, headers, body size, content type, Accept, JSON, 2026 envelope and headers,
 * protocol version, session, session cap, path and method.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ErrorCode, isMcpLayerError, type Layer, type McpLayerError, Principal } from '@cloudg/core';
import { AuthConfigError } from '../auth/errors.js';
import { accessTokenInfo } from '../auth/oauth/claims.js';
import { OAuthResourceServer } from '../auth/oauth/resource-server.js';
import { type PrincipalResolver, RequestInfo, resolvePrincipal } from '../auth/principal-resolver.js';
import { TokenAuth } from '../auth/token-auth.js';
import { ProtocolError } from '../jsonrpc/errors.js';
import { isObject, isValidId, looksLikeRequest } from '../jsonrpc/messages.js';
import { parseJsonBytes } from '../jsonrpc/parse-json.js';
import { checkEnvelopeKeys, hasEnvelope, readEnvelope } from '../protocol/envelope.js';
import { isHandshakeVersion, isModernVersion } from '../protocol/negotiate.js';
import { McpProtocolServer } from '../protocol/server.js';
import { DEFAULT_HTTP_VERSION, HANDSHAKE_VERSIONS, MODERN_VERSION } from '../protocol/versions.js';
import { cancelSessionTasks } from '../tasks/session-tasks.js';
import { type Accepts, isJsonContentType, parseAccept } from './accept.js';
import { RequestAdmission } from './admission.js';
import { Cors } from './cors.js';
import { type DependencyChecks, runDependencyChecks } from './dependency-checks.js';
import { headerValue } from './header-value.js';
import { isLoopbackAddress, OriginHostGuard } from './host-header-guard.js';
import { LegacySseEndpoints } from './legacy-sse.js';
import { HttpMetrics } from './metrics.js';
import { checkModernHeaders } from './modern-headers.js';
import { type HttpServerOptions, type ResolvedHttpOptions, resolveHttpOptions } from './options.js';
import { checkParamHeaders, paramHeaders } from './param-headers.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { type RespondOptions, respond } from './respond.js';
import {
  SERVER_HEADER,
  sendBusy,
  sendEmpty,
  sendJson,
  sendRpcError,
  sendTooManySessions,
} from './responses.js';
import { HttpSession, SessionStore } from './session-store.js';
import { type SharedEntry, SharedSessions } from './shared-sessions.js';
import { SseStream } from './sse-stream.js';

export interface BoundAddress {
  host: string;
  port: number;
  /** The MCP endpoint's URL. */
  url: string;
}

export class McpHttpServer {
  readonly options: ResolvedHttpOptions;
  readonly protocol: McpProtocolServer;
  readonly httpServer: Server;
  private readonly guard: OriginHostGuard;
  private readonly cors: Cors;
  private readonly auth: TokenAuth | undefined;
  /** OAuth access tokens (auth/oauth), beside or instead of static tokens. */
  private readonly oauth: OAuthResourceServer | undefined;
  private readonly resolver: PrincipalResolver | undefined;
  private readonly store: SessionStore;
  private readonly legacy: LegacySseEndpoints;
  /** Handshake-era sessions shared with other replicas (`options.sessions`). */
  private readonly shared: SharedSessions | undefined;
  private readonly sockets = new Set<Socket>();
  /** The response being written on each connection (Node serves a connection's requests one at a time). */
  private readonly responding = new WeakMap<Socket, ServerResponse>();
  private bound: BoundAddress | undefined;
  /** How many requests run at once, and how long the rest may wait (see admission.ts). */
  readonly admission: RequestAdmission;
  /** Prometheus metrics, when `options.metrics` asked for them. */
  readonly metrics: HttpMetrics | undefined;
  private readonly ready: (() => boolean) | undefined;
  private readonly dependencies: DependencyChecks | undefined;
  /** Set once closing begins: the readiness check answers 503 from then on. */
  private stopping = false;
  /** Whether the idle-session sweeper runs (started by `listen()` or `startMounted()`). */
  private sweeping = false;

  constructor(layer: Layer<unknown>, options: HttpServerOptions = {}) {
    this.options = resolveHttpOptions(options);
    this.protocol = new McpProtocolServer(layer, options);
    this.guard = new OriginHostGuard({
      bindHost: this.options.host,
      allowedOrigins: options.allowedOrigins,
      allowedHosts: options.allowedHosts,
      extraOrigins: this.options.corsOrigins,
    });
    this.cors = new Cors(this.options.corsOrigins);
    this.auth =
      options.auth ??
      (options.authTokens && options.authTokens.length > 0
        ? TokenAuth.fromSpecs(options.authTokens, { required: options.authRequired ?? true })
        : undefined);
    this.oauth = options.oauth ? new OAuthResourceServer(options.oauth, this.options.path) : undefined;
    if (this.oauth)
      this.oauth.onIssuerError = (reason) =>
        layer.logger.warn({ err: reason }, 'OAuth issuer unavailable; tokens are refused');
    this.resolver = options.principalResolver;
    this.store = new SessionStore(
      this.options.maxSessions,
      this.options.sessionIdleTimeoutMs,
      this.options.maxSessionsPerPrincipal,
    );
    this.legacy = new LegacySseEndpoints(
      this.protocol,
      this.store,
      this.options,
      this.options.legacySse ? options.legacySseRelay : undefined,
    );
    this.shared = options.sessions
      ? new SharedSessions(
          options.sessions,
          this.store,
          this.protocol,
          {
            maxSessions: this.options.maxSessions,
            maxPerPrincipal: this.options.maxSessionsPerPrincipal,
            idleMs: this.options.sessionIdleTimeoutMs,
          },
          this.options.keepaliveIntervalMs,
        )
      : undefined;
    this.admission = new RequestAdmission({
      maxInFlight: this.options.maxInFlightRequests,
      maxQueueWaitMs: this.options.maxQueueWaitMs,
    });
    this.ready = options.ready;
    this.dependencies = options.dependencies;
    this.metrics = options.metrics
      ? new HttpMetrics(options.metrics, {
          sessions: () => this.store.size,
          inFlight: () => this.admission.inFlight,
          waiting: () => this.admission.waiting,
        })
      : undefined;
    this.httpServer = createServer(
      {
        maxHeaderSize: this.options.maxHeaderBytes,
        ...nodeTimeouts(this.options.headersTimeoutMs, this.options.requestTimeoutMs),
      },
      (req, res) => {
        this.responding.set(req.socket, res);
        this.metrics?.track(req, res);
        this.handle(req, res).catch((error: unknown) => {
          if (retryable(error)) {
            // Shared state out of reach (the shared session store): the client may send it again.
            layer.logger.warn({ err: error }, 'HTTP request refused: shared state unavailable');
            if (!res.headersSent) {
              const wire = error.toJsonRpc();
              sendRpcError(res, 503, wire.message, {
                code: wire.code,
                // The code a tool result would carry in `cloudg/error_code`, beside the details.
                data: { error_code: error.code, ...(wire.data as Record<string, unknown>) },
                headers: { 'Retry-After': '1' },
              });
            } else res.end();
            return;
          }
          layer.logger.error({ err: error }, 'HTTP request failed');
          if (!res.headersSent) sendRpcError(res, 500, 'Internal error', { code: ErrorCode.InternalError });
          else res.end();
        });
      },
    );
    this.httpServer.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.httpServer.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      // Bytes written now would land inside a response already under way (an SSE stream, say) and
      // corrupt it: that connection is just closed.
      const current = this.responding.get(socket);
      if (!socket.writable || (current?.headersSent && !current.writableFinished)) return socket.destroy();
      const [status, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? ['431 Request Header Fields Too Large', 'Request header fields too large']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? ['408 Request Timeout', 'Request timeout']
            : ['400 Bad Request', 'Bad Request'];
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.InvalidRequest, message },
      });
      socket.end(
        `HTTP/1.1 ${status}\r\nServer: ${SERVER_HEADER}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
  }

  /** Start listening; resolves with the bound address (port 0 gives a free port). */
  async listen(): Promise<BoundAddress> {
    const { host, port, path } = this.options;
    if (!isLoopbackAddress(host) && !this.auth && !this.oauth) {
      this.protocol.layer.logger.warn(
        { host },
        'HTTP server bound to a non-loopback address without auth tokens',
      );
    }
    await new Promise<void>((resolve, reject) => {
      this.httpServer.once('error', reject);
      this.httpServer.listen(port, host, () => {
        this.httpServer.off('error', reject);
        resolve();
      });
    });
    this.startMounted();
    const address = this.httpServer.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.bound = { host: address.address, port: address.port, url: `http://${shown}:${address.port}${path}` };
    this.oauth?.setDefaultResource(this.bound.url);
    return this.bound;
  }

  /**
   * Serve from another server's requests (`createMcpRequestHandler`): start what `listen()` starts
   * besides listening, the idle-session sweeper. Idempotent.
   */
  startMounted(): void {
    // Mounted, the server cannot know its public URL, and tokens must name it.
    if (this.oauth && !this.oauth.hasResource && !this.httpServer.listening)
      throw new AuthConfigError(
        'Mounting with oauth needs oauth.resource: the public URL of the MCP endpoint',
      );
    if (this.sweeping) return;
    this.sweeping = true;
    this.store.start();
  }

  /** Where the OAuth protected resource metadata is served without a token (none without `oauth`). */
  get oauthMetadataPaths(): string[] {
    return this.oauth?.metadataPathList ?? [];
  }

  get address(): BoundAddress | undefined {
    return this.bound;
  }

  /** Whether the readiness check answers 200: not closing, and the application says it is ready. */
  get isReady(): boolean {
    return !this.stopping && (this.ready?.() ?? true);
  }

  /**
   * Report not ready (503 on the readiness check) from now on, while still serving: tells a load
   * balancer to stop sending requests before `close()`. `close()` does this first itself.
   */
  markStopping(): void {
    this.stopping = true;
  }

  /** End listen streams gracefully, close sessions and sockets, stop listening. */
  async close(): Promise<void> {
    this.markStopping();
    this.protocol.endListens();
    // Let the listen requests write their final results before the sockets go.
    await new Promise((resolve) => setImmediate(resolve));
    await this.shared?.close();
    this.legacy.close();
    this.store.closeAll();
    this.admission.close();
    this.protocol.close();
    const closed = new Promise<void>((resolve) => this.httpServer.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    if (this.httpServer.listening) await closed;
  }

  /** The request handler, for mounting into an existing `node:http` server. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const query = rawUrl.indexOf('?');
    const pathname = query === -1 ? rawUrl : rawUrl.slice(0, query);
    const origin = headerValue(req.headers, 'origin');
    const rejection = this.guard.check(headerValue(req.headers, 'host'), origin);
    if (rejection) return sendRpcError(res, rejection.status, rejection.message);
    this.cors.apply(res, origin);

    if (req.method === 'OPTIONS') {
      if (!this.cors.enabled) return sendEmpty(res, 405, { Allow: this.allowedMethods(pathname) });
      this.cors.preflight(res, origin);
      return sendEmpty(res, 204);
    }
    if (pathname === this.options.healthPath && req.method === 'GET') {
      if (!this.dependencies) return sendJson(res, 200, { status: 'ok' });
      const { checks } = await runDependencyChecks(this.dependencies);
      return sendJson(res, 200, { status: 'ok', checks });
    }
    if (pathname === this.options.readyPath && req.method === 'GET') {
      if (!this.isReady)
        return sendJson(
          res,
          503,
          { status: this.stopping ? 'stopping' : 'starting' },
          { 'Retry-After': '1' },
        );
      if (!this.dependencies) return sendJson(res, 200, { status: 'ready' });
      const { ok, checks } = await runDependencyChecks(this.dependencies);
      if (ok) return sendJson(res, 200, { status: 'ready', checks });
      return sendJson(res, 503, { status: 'unavailable', checks }, { 'Retry-After': '1' });
    }
    const metrics = this.metrics && pathname === this.metrics.path ? this.metrics : undefined;
    if (metrics?.public) return this.scrape(req, res, metrics);

    if (this.oauth?.servesMetadataAt(pathname)) {
      if (req.method !== 'GET') return sendEmpty(res, 405, { Allow: 'GET' });
      return sendJson(res, 200, this.oauth.metadata());
    }
    let tokenPrincipal = this.auth?.authenticate(headerValue(req.headers, 'authorization'));
    if (this.oauth && !tokenPrincipal) {
      const outcome = await this.oauth.authenticate(headerValue(req.headers, 'authorization'));
      if ('refusal' in outcome) {
        const { status, header } = this.oauth.challenge(outcome.refusal);
        return sendRpcError(res, status, status === 403 ? 'Forbidden: insufficient scope' : 'Unauthorized', {
          headers: { 'WWW-Authenticate': header },
        });
      }
      tokenPrincipal = outcome.principal;
    } else if (this.auth?.required && !tokenPrincipal) {
      return sendRpcError(res, 401, 'Unauthorized', {
        headers: { 'WWW-Authenticate': 'Bearer realm="cloudg-mcp"' },
      });
    }
    if (metrics) return this.scrape(req, res, metrics);
    const principal = await this.principalFor(req, pathname, tokenPrincipal);

    if (pathname === this.options.path) {
      if (req.method === 'POST') return this.post(req, res, principal);
      if (req.method === 'GET' && !this.options.stateless) return this.get(req, res, principal);
      if (req.method === 'DELETE' && !this.options.stateless) return this.delete(req, res, principal);
      return sendEmpty(res, 405, { Allow: this.allowedMethods(pathname) });
    }
    if (this.options.legacySse) {
      if (pathname === this.options.ssePath) {
        if (req.method === 'GET') return this.legacy.open(req, res, principal);
        return sendEmpty(res, 405, { Allow: 'GET' });
      }
      if (pathname === this.options.messagePath) {
        if (req.method === 'POST')
          return this.legacy.post(req, res, principal, new URL(rawUrl, 'http://localhost'));
        return sendEmpty(res, 405, { Allow: 'POST' });
      }
    }
    return sendRpcError(res, 404, 'Not Found');
  }

  /** `GET /metrics`: the registry in the Prometheus text format. */
  private scrape(req: IncomingMessage, res: ServerResponse, metrics: HttpMetrics): Promise<void> | void {
    if (req.method !== 'GET') return sendEmpty(res, 405, { Allow: 'GET' });
    return metrics.answer(res);
  }

  /** The caller: the resolver's answer, else the default order (the token's principal, else anonymous). */
  private principalFor(
    req: IncomingMessage,
    pathname: string,
    tokenPrincipal: Principal | undefined,
  ): Principal | Promise<Principal> {
    // Without a resolver the default order needs no RequestInfo: skip building one per request.
    if (!this.resolver) return tokenPrincipal ?? Principal.anonymous();
    const info = new RequestInfo({
      transport: this.options.legacySse && pathname !== this.options.path ? 'sse' : 'http',
      headers: req.headers,
      sessionId: headerValue(req.headers, 'mcp-session-id'),
      principal: tokenPrincipal,
      ...accessTokenInfo(tokenPrincipal),
      raw: req,
    });
    return resolvePrincipal(this.resolver, info, (error) =>
      this.protocol.layer.logger.warn({ err: error }, 'principal resolver failed'),
    );
  }

  private allowedMethods(path: string): string {
    if (path === this.options.path) return this.options.stateless ? 'POST' : 'GET, POST, DELETE';
    return 'GET';
  }

  private async post(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    let body: Buffer;
    try {
      body = await readBody(req, this.options.maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        return sendRpcError(res, 413, 'Request body too large', {
          headers: { Connection: 'close' },
          data: { limit: error.limit },
        });
      }
      // The body never arrived whole: the client went away, or its framing was broken and the
      // 'clientError' handler has already answered 400. Either way there is no one to answer here.
      this.protocol.layer.logger.debug({ err: error }, 'request body not received');
      // Anything else that broke the body leaves no half-open response behind.
      if (!res.headersSent && !req.socket.writableEnded) res.destroy();
      return;
    }
    if (!isJsonContentType(headerValue(req.headers, 'content-type'))) {
      return sendRpcError(res, 415, 'Content-Type must be application/json');
    }
    const accepts = parseAccept(headerValue(req.headers, 'accept'));
    if (!accepts.json && !accepts.sse) {
      return sendRpcError(
        res,
        406,
        'Not Acceptable: Accept must include application/json or text/event-stream',
      );
    }
    let message: unknown;
    try {
      message = parseJsonBytes(body);
    } catch {
      return sendRpcError(res, 400, 'Parse error', { code: ErrorCode.ParseError });
    }

    let serve: () => Promise<void>;
    if (Array.isArray(message)) {
      if (message.some((m) => isObject(m) && hasEnvelope(m.params))) {
        return sendRpcError(
          res,
          400,
          `JSON-RPC batches are not supported by protocol version ${MODERN_VERSION}`,
        );
      }
      serve = () => this.postHandshake(req, res, principal, message, accepts);
    } else if (
      isObject(message) &&
      (hasEnvelope(message.params) || isModernVersion(headerValue(req.headers, 'mcp-protocol-version')))
    ) {
      // A 2026 request, or one whose header says so: a missing envelope is then -32602, not a version error.
      serve = () => this.postModern(req, res, principal, message, accepts);
    } else {
      serve = () => this.postHandshake(req, res, principal, message, accepts);
    }
    // Notifications and responses (cancellations among them) and listen streams go straight
    // through; requests take their turn, or are shed when they cannot get one in time.
    if (!needsAdmission(message)) return serve();
    return this.admission.submit(
      serve,
      () => sendBusy(res, singleId(message), this.options),
      () => !res.destroyed && !res.writableEnded,
    );
  }

  /** A 2026-07-28 request: the envelope and header ladder, then a one-shot session. */
  private async postModern(
    req: IncomingMessage,
    res: ServerResponse,
    principal: Principal,
    message: Record<string, unknown>,
    accepts: Accepts,
  ): Promise<void> {
    // 2026 defines no client notifications over HTTP (closing a stream cancels), and no header
    // rules for them: accept and drop.
    if (!('id' in message)) return sendEmpty(res, 202);
    const id = isValidId(message.id) ? message.id : null;
    try {
      checkEnvelopeKeys(message.params);
      const mismatch =
        checkModernHeaders(req.headers, message) ?? this.checkParamHeaders(req, message, principal);
      if (mismatch) throw mismatch;
      readEnvelope(message.params);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      const wire = error.toJsonRpc();
      return sendRpcError(res, 400, wire.message, { code: wire.code, id, data: wire.data });
    }
    const session = this.protocol.createSession({ transport: 'http', principal, register: false });
    await respond(res, session, message, this.respondOptions(accepts, true, req));
  }

  /** `Mcp-Param-*` headers of a 2026 `tools/call`, for a tool the caller can see. */
  private checkParamHeaders(
    req: IncomingMessage,
    message: Record<string, unknown>,
    principal: Principal,
  ): ProtocolError | undefined {
    if (message.method !== 'tools/call' || !isObject(message.params)) return undefined;
    const { name, arguments: args } = message.params;
    if (typeof name !== 'string') return undefined;
    const { layer } = this.protocol;
    // Looked up quietly: an unknown or hidden tool is the call's own error, reported once.
    const spec = layer.registry.tools.get(layer.internalName(name));
    if (!spec || !layer.isVisible(spec, principal)) return undefined;
    const params = paramHeaders(spec.inputSchema);
    return params.length === 0 ? undefined : checkParamHeaders(req.headers, params, args);
  }

  private async postHandshake(
    req: IncomingMessage,
    res: ServerResponse,
    principal: Principal,
    message: unknown,
    accepts: Accepts,
  ): Promise<void> {
    const version = headerValue(req.headers, 'mcp-protocol-version');
    if (version !== undefined && !isHandshakeVersion(version)) {
      return sendRpcError(res, 400, `Unsupported MCP-Protocol-Version: ${version}`, {
        data: { supported: [...HANDSHAKE_VERSIONS], requested: version },
      });
    }
    const initialize = isObject(message) && message.method === 'initialize';

    if (this.options.stateless) {
      const session = this.protocol.createSession({
        transport: 'http',
        principal,
        register: false,
        ...(initialize ? {} : { presetVersion: version ?? DEFAULT_HTTP_VERSION }),
      });
      return respond(res, session, message, this.respondOptions(accepts, false, req));
    }

    if (initialize && this.shared) {
      const opened = await this.shared.open(principal);
      if (typeof opened === 'string') return this.refuseSession(res, opened);
      const shared = this.shared;
      const headers: Record<string, string> = { 'Mcp-Session-Id': opened.entry.id };
      return respond(res, opened.entry.session, message, {
        ...this.respondOptions(accepts, false, req),
        headers,
        onResult: async (result) => {
          if (!result || (isObject(result) && 'error' in result)) {
            delete headers['Mcp-Session-Id'];
            await shared.end(opened.entry);
          } else await shared.save(opened);
        },
      });
    }

    if (initialize) {
      if (!this.admitSession(res, principal)) return;
      const entry = new HttpSession(this.protocol, 'streamable', principal);
      this.store.add(entry);
      const headers: Record<string, string> = { 'Mcp-Session-Id': entry.id };
      return respond(res, entry.session, message, {
        ...this.respondOptions(accepts, false, req),
        headers,
        onResult: (result) => {
          // A failed initialize leaves no session behind, and names none.
          if (!result || (isObject(result) && 'error' in result)) {
            this.store.delete(entry.id);
            delete headers['Mcp-Session-Id'];
          }
        },
      });
    }

    const found = await this.findSession(req, res, principal);
    if (!found) return;
    const { entry } = found;
    const negotiated = entry.session.protocolVersion;
    if (version !== undefined && version !== negotiated) {
      return sendRpcError(
        res,
        400,
        `MCP-Protocol-Version ${version} does not match the negotiated version ${negotiated}`,
        {
          data: { requested: version, negotiated },
        },
      );
    }
    entry.touch();
    // The session was opened with this id and these roles; the request runs as the credential
    // that sent it, so a session never lends its creator's identity to a later caller.
    const shared = this.shared;
    await respond(res, entry.session, message, {
      ...this.respondOptions(accepts, false, req),
      principal,
      ...(shared && found.before ? { onResult: () => shared.save(found as SharedEntry) } : {}),
    });
    entry.touch();
  }

  /** Room for a new session of this caller, or an answer: 429 over its quota, 503 when all are taken. */
  private admitSession(res: ServerResponse, principal: Principal): boolean {
    const admission = this.store.admit(principal.id);
    if (admission === 'ok') return true;
    this.refuseSession(res, admission);
    return false;
  }

  private refuseSession(res: ServerResponse, admission: 'quota' | 'full'): void {
    if (admission === 'quota') sendTooManySessions(res, this.store.maxPerPrincipal);
    else sendRpcError(res, 503, 'Service Unavailable: too many sessions');
  }

  /**
   * The caller's session from `Mcp-Session-Id`, or an answer: 400 when missing, 404 when unknown,
   * another principal's, or opened with other roles than the caller's (MCP.md 6.2; a 404 tells a
   * client to start a session of its own, which then carries its own roles).
   */
  private async findSession(
    req: IncomingMessage,
    res: ServerResponse,
    principal: Principal,
  ): Promise<{ entry: HttpSession; before?: SharedEntry['before'] } | undefined> {
    const id = headerValue(req.headers, 'mcp-session-id');
    if (!id) {
      sendRpcError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    // Shared by replicas: the store's state now, whichever replica served the session before.
    const found = this.shared
      ? await this.shared.find(id, principal)
      : ((entry) => (entry ? { entry } : undefined))(this.store.find(id, 'streamable', principal));
    if (!found) sendRpcError(res, 404, 'Session not found');
    return found;
  }

  /** GET: the session's standalone stream for change notifications. */
  private async get(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    if (!parseAccept(headerValue(req.headers, 'accept')).sse) {
      sendRpcError(res, 406, 'Not Acceptable: GET requires Accept: text/event-stream');
      return;
    }
    const found = await this.findSession(req, res, principal);
    if (!found) return;
    const { entry } = found;
    if (this.shared) {
      // Resumable: the events after Last-Event-ID come from the session's log, on any replica.
      if (!(await this.shared.attach(entry, res, headerValue(req.headers, 'last-event-id'))))
        sendRpcError(res, 409, 'Conflict: only one GET stream per session');
      return;
    }
    if (entry.stream && !entry.stream.closed) {
      sendRpcError(res, 409, 'Conflict: only one GET stream per session');
      return;
    }
    const stream = new SseStream(res, this.options.keepaliveIntervalMs, { 'Mcp-Session-Id': entry.id });
    entry.attach(stream);
    entry.touch();
    res.on('close', () => {
      if (entry.stream === stream) entry.stream = undefined;
      entry.touch();
    });
  }

  /** DELETE: end the session (on every replica, when they share sessions). */
  private async delete(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    const found = await this.findSession(req, res, principal);
    if (!found) return;
    if (this.shared) await this.shared.end(found.entry);
    else this.store.delete(found.entry.id);
    // Its 2025-11-25 tasks end with it, on whichever replica runs them.
    cancelSessionTasks(this.protocol, found.entry.binding, found.entry.id);
    sendEmpty(res, 200);
  }

  private respondOptions(accepts: Accepts, modern: boolean, req: IncomingMessage): RespondOptions {
    return {
      accepts,
      modern,
      jsonResponse: this.options.jsonResponse,
      keepaliveMs: this.options.keepaliveIntervalMs,
      // The headers carry the caller's W3C trace context; only read when tracing is on.
      ...(this.protocol.tracing ? { carrier: req.headers } : {}),
    };
  }
}

/** A layer error the client may retry (shared state out of reach), answered 503. */
function retryable(error: unknown): error is McpLayerError {
  if (!isMcpLayerError(error)) return false;
  const data = error.data;
  return typeof data === 'object' && data !== null && (data as { retryable?: unknown }).retryable === true;
}

/**
 * Requests that wait rather than work, so they take no admission slot: a `subscriptions/listen`
 * stream, and a 2025-11-25 `tasks/result`, which blocks until its task ends (hours for a live
 * tool) while the task itself already ran through admission. Held in a slot, a few of them would
 * stall every other caller; they are bounded instead by the tasks a session may keep, one waiter
 * per task and session (task-methods.ts).
 */
const WAITING_METHODS: ReadonlySet<unknown> = new Set(['subscriptions/listen', 'tasks/result']);

/** Whether a POST body holds work to admit: any request other than one that only waits. */
function needsAdmission(message: unknown): boolean {
  if (Array.isArray(message)) return message.some(looksLikeRequest);
  return looksLikeRequest(message) && isObject(message) && !WAITING_METHODS.has(message.method);
}

/** The id of a single request, for its shed answer. */
function singleId(message: unknown): string | number | null {
  return isObject(message) && isValidId(message.id) ? message.id : null;
}

/**
 * Node's request limits from ours, 0 meaning off for either. Node wants the header limit no longer
 * than the whole-request limit, and checks them every `connectionsCheckingInterval`: often enough
 * here that a limit holds to within a quarter of itself.
 */
function nodeTimeouts(
  headersMs: number,
  requestMs: number,
): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const headersTimeout = requestMs > 0 && (headersMs === 0 || headersMs > requestMs) ? requestMs : headersMs;
  const shortest = Math.min(...[headersTimeout, requestMs].filter((ms) => ms > 0), 120_000);
  return {
    headersTimeout,
    requestTimeout: requestMs,
    connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(shortest / 4))),
  };
}

/** A server that is not listening yet: call `listen()`, or mount `handle` yourself. */
export function createHttpServer(layer: Layer<unknown>, options: HttpServerOptions = {}): McpHttpServer {
  return new McpHttpServer(layer, options);
}

export interface RunningHttpServer extends BoundAddress {
  server: McpHttpServer;
  close(): Promise<void>;
}

/** Create and start a server; resolves once it listens. */
export async function serveHttp(
  layer: Layer<unknown>,
  options: HttpServerOptions = {},
): Promise<RunningHttpServer> {
  const server = createHttpServer(layer, options);
  const bound = await server.listen();
  return { ...bound, server, close: () => server.close() };
}
