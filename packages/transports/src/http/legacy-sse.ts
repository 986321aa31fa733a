/**
 * The deprecated 2024-11-05 HTTP+SSE transport: `GET /sse` opens a stream whose first event names
 * the endpoint to POST messages to; answers travel back on the stream.
 *
 * Behind several replicas (a `LegacySseRelay`, legacy-sse-relay.ts) the session stays on the
 * replica holding its stream, and a POST that reaches another replica is forwarded there: the
 * receiving replica checks the session and the caller as the holder would (404 for an unknown
 * session or another principal's), reads and parses the body, answers 202 once the holder has
 * heard it, and the holder runs it as if the POST had come to it. The relay also counts the
 * session in the cap and quota the replicas share with the 2025 sessions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, Principal } from '@cloudg/core';
import { errorResponse } from '../jsonrpc/messages.js';
import { parseJsonBytes } from '../jsonrpc/parse-json.js';
import type { TraceCarrier } from '../protocol/observe.js';
import { MessageSequencer } from '../protocol/sequencer.js';
import type { McpProtocolServer } from '../protocol/server.js';
import { isJsonContentType, parseAccept } from './accept.js';
import type { LegacySsePost, LegacySseRelay } from './legacy-sse-relay.js';
import type { ResolvedHttpOptions } from './options.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { sendEmpty, sendRpcError, sendTooManySessions } from './responses.js';
import { type Admission, bindingOf, HttpSession, type SessionStore } from './session-store.js';
import { SseStream } from './sse-stream.js';

/** The trace context headers a forwarded POST carries to the holder (the rest stay behind). */
const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;

export class LegacySseEndpoints {
  private readonly sequencers = new WeakMap<HttpSession, MessageSequencer>();
  /**
   * Sessions whose record is being written: their release waits for it, so it cannot land first,
   * and is not sent when the count refused the session (true once recorded).
   */
  private readonly holding = new Map<string, Promise<boolean>>();
  private readonly ended = new WeakSet<HttpSession>();
  private readonly stopPosts: (() => void) | undefined;

  constructor(
    private readonly protocol: McpProtocolServer,
    private readonly store: SessionStore,
    private readonly options: ResolvedHttpOptions,
    private readonly relay?: LegacySseRelay,
  ) {
    this.stopPosts = relay?.onPost((post) => this.hear(post));
  }

  async open(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    if (!parseAccept(req.headers.accept).sse) {
      sendRpcError(res, 406, 'Not Acceptable: GET requires Accept: text/event-stream');
      return;
    }
    // In one process this replica's store counts both transports' sessions. Behind several
    // replicas the relay counts them where the 2025 sessions are counted (across replicas), and
    // this replica's store, which holds views of sessions held elsewhere, must not count again.
    if (!this.relay) {
      // An SSE session always has its stream open, so none is ever idle enough to be ended here.
      const admission = this.store.admit(principal.id);
      if (admission !== 'ok') {
        this.refuse(res, admission);
        return;
      }
    }
    const entry = new HttpSession(this.protocol, 'sse', principal);
    this.store.add(entry);
    this.sequencers.set(entry, new MessageSequencer());
    let closed = false;
    res.on('close', () => {
      closed = true;
      this.end(entry);
    });
    if (this.relay) {
      // Counted and recorded before the endpoint is named: the client's first POST may reach any
      // replica, and the quota holds on all of them.
      const held = this.relay.hold(entry.id, entry.binding, {
        principalId: principal.id,
        maxSessions: this.store.maxSessions,
        maxPerPrincipal: this.store.maxPerPrincipal,
      });
      // Never rejects: a hold that failed wrote nothing, so there is nothing to release.
      const recorded = held.then(
        (admission) => admission === 'ok',
        () => false,
      );
      this.holding.set(entry.id, recorded);
      let admission: Admission;
      try {
        admission = await held;
      } catch (error) {
        // Redis out of reach: the server answers 503 (retry), and no session is left behind
        // (nor a release sent after a record that was never written).
        this.end(entry, false);
        throw error;
      } finally {
        if (this.holding.get(entry.id) === recorded) this.holding.delete(entry.id);
      }
      if (admission !== 'ok') {
        this.end(entry, false);
        if (!closed) this.refuse(res, admission);
        return;
      }
      if (closed) return;
    }
    const stream = new SseStream(res, this.options.keepaliveIntervalMs);
    entry.attach(stream);
    stream.send(`${this.options.messagePath}?session_id=${entry.id}`, 'endpoint');
  }

  /** 429 over the principal's quota with none of its sessions idle, 503 when all are taken. */
  private refuse(res: ServerResponse, admission: Exclude<Admission, 'ok'>): void {
    if (admission === 'quota') sendTooManySessions(res, this.store.maxPerPrincipal);
    else sendRpcError(res, 503, 'Service Unavailable: too many sessions');
  }

  /** The stream closed (or never opened): the session ends here and, through the relay, everywhere. */
  private end(entry: HttpSession, recorded = true): void {
    if (this.ended.has(entry)) return;
    this.ended.add(entry);
    // The server closing may have dropped it from the store already; the record goes all the same.
    if (this.store.get(entry.id) === entry) this.store.delete(entry.id);
    if (!this.relay || !recorded) return;
    const pending = this.holding.get(entry.id);
    // A session refused by the count was never recorded: nothing to release.
    if (pending)
      void pending.then((wasRecorded) => {
        if (wasRecorded) this.release(entry.id);
      });
    else this.release(entry.id);
  }

  /** Drop the session's record through the relay; a failure is logged (the record then lapses). */
  private release(id: string): void {
    this.relay
      ?.release(id)
      .catch((error: unknown) =>
        this.protocol.layer.logger.warn({ err: error }, 'legacy SSE session release failed'),
      );
  }

  async post(req: IncomingMessage, res: ServerResponse, principal: Principal, url: URL): Promise<void> {
    const id = url.searchParams.get('session_id');
    if (!id) {
      sendRpcError(res, 400, 'Bad Request: session_id is required');
      return;
    }
    const entry = this.store.find(id, 'sse', principal);
    const sequencer = entry && this.sequencers.get(entry);
    // Checked before the body is read, here as on the holder.
    const holder = entry && sequencer ? undefined : await this.holderOf(id, principal);
    if ((!entry || !sequencer) && holder === undefined) {
      sendRpcError(res, 404, 'Session not found');
      return;
    }
    let body: Buffer;
    try {
      body = await readBody(req, this.options.maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        sendRpcError(res, 413, 'Request body too large', { headers: { Connection: 'close' } });
        return;
      }
      // The body never arrived whole (the client went away, or 'clientError' answered its framing).
      this.protocol.layer.logger.debug({ err: error }, 'request body not received');
      // Anything else that broke the body leaves no half-open response behind.
      if (!res.headersSent && !req.socket.writableEnded) res.destroy();
      return;
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      sendRpcError(res, 415, 'Content-Type must be application/json');
      return;
    }
    let message: unknown;
    try {
      message = parseJsonBytes(body);
    } catch {
      sendRpcError(res, 400, 'Parse error', { code: ErrorCode.ParseError });
      return;
    }
    if (holder !== undefined && this.relay) {
      const heard = await this.relay.forward(holder, {
        session: id,
        principal: {
          id: principal.id,
          roles: principal.sortedRoles(),
          attributes: { ...principal.attributes },
        },
        message,
        ...this.traceHeaders(req),
      });
      // The holder died after it was located: the session went with it.
      if (!heard) sendRpcError(res, 404, 'Session not found');
      else sendEmpty(res, 202);
      return;
    }
    if (!entry || !sequencer) return;
    entry.touch();
    sendEmpty(res, 202);
    this.run(entry, sequencer, message, principal, this.protocol.tracing ? req.headers : undefined);
  }

  /**
   * The live replica holding session `id` when it is another one and was opened by this caller (the
   * same principal id and roles, as the holder checks); otherwise undefined, which the caller
   * answers 404 as for an unknown session.
   */
  private async holderOf(id: string, principal: Principal): Promise<string | undefined> {
    // A session this replica has (another principal's, or another transport's) is never forwarded.
    if (!this.relay || this.store.get(id)) return undefined;
    const holder = await this.relay.locate(id);
    if (!holder || holder.replica === this.relay.replica || holder.binding !== bindingOf(principal))
      return undefined;
    return holder.replica;
  }

  private traceHeaders(req: IncomingMessage): { carrier?: TraceCarrier } {
    if (!this.protocol.tracing) return {};
    const carrier: Record<string, string | string[]> = {};
    for (const name of TRACE_HEADERS) {
      const value = req.headers[name];
      if (value !== undefined) carrier[name] = value;
    }
    return Object.keys(carrier).length === 0 ? {} : { carrier };
  }

  /** A POST another replica received for a session held here: served as if it had come here. */
  private hear(post: LegacySsePost): void {
    const principal = new Principal(post.principal);
    const entry = this.store.find(post.session, 'sse', principal);
    const sequencer = entry && this.sequencers.get(entry);
    if (!entry || !sequencer) {
      // Its stream closed between the other replica's lookup and now, as a local POST may
      // arrive just after a stream closed: nowhere to answer. A record still naming this replica
      // (its release failed, or lost a race) goes now, so the next POST elsewhere gets 404.
      this.protocol.layer.logger.debug('forwarded legacy SSE message for a session gone');
      if (!this.store.get(post.session)) this.release(post.session);
      return;
    }
    entry.touch();
    this.run(entry, sequencer, post.message, principal, post.carrier);
  }

  private run(
    entry: HttpSession,
    sequencer: MessageSequencer,
    message: unknown,
    principal: Principal,
    carrier: TraceCarrier | undefined,
  ): void {
    sequencer.submit(message, async () => {
      try {
        const result = await entry.session.handle(message, {
          principal,
          ...(carrier ? { carrier } : {}),
        });
        if (result !== undefined) entry.send(result);
      } catch (error) {
        this.protocol.layer.logger.error({ err: error }, 'sse message failed');
        entry.send(errorResponse(null, { code: ErrorCode.InternalError, message: 'Internal error' }));
      }
    });
  }

  /** Stop hearing forwarded POSTs (the server is closing). */
  close(): void {
    this.stopPosts?.();
  }
}
