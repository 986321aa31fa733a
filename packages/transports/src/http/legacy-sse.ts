/**
 * The deprecated 2024-11-05 HTTP+SSE transport: `GET /sse` opens a stream whose first event names
 * the endpoint to POST messages to; answers travel back on the stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, type Principal } from '@cloudg/core';
import { errorResponse } from '../jsonrpc/messages.js';
import { parseJsonBytes } from '../jsonrpc/parse-json.js';
import { MessageSequencer } from '../protocol/sequencer.js';
import type { McpProtocolServer } from '../protocol/server.js';
import { isJsonContentType, parseAccept } from './accept.js';
import type { ResolvedHttpOptions } from './options.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import { sendEmpty, sendRpcError, sendTooManySessions } from './responses.js';
import { HttpSession, type SessionStore } from './session-store.js';
import { SseStream } from './sse-stream.js';

export class LegacySseEndpoints {
  private readonly sequencers = new WeakMap<HttpSession, MessageSequencer>();

  constructor(
    private readonly protocol: McpProtocolServer,
    private readonly store: SessionStore,
    private readonly options: ResolvedHttpOptions,
  ) {}

  open(req: IncomingMessage, res: ServerResponse, principal: Principal): void {
    if (!parseAccept(req.headers.accept).sse) {
      sendRpcError(res, 406, 'Not Acceptable: GET requires Accept: text/event-stream');
      return;
    }
    // An SSE session always has its stream open, so none is ever idle enough to be ended here.
    const admission = this.store.admit(principal.id);
    if (admission !== 'ok') {
      if (admission === 'quota') sendTooManySessions(res, this.store.maxPerPrincipal);
      else sendRpcError(res, 503, 'Service Unavailable: too many sessions');
      return;
    }
    const entry = new HttpSession(this.protocol, 'sse', principal);
    this.store.add(entry);
    this.sequencers.set(entry, new MessageSequencer());
    const stream = new SseStream(res, this.options.keepaliveIntervalMs);
    entry.attach(stream);
    stream.send(`${this.options.messagePath}?session_id=${entry.id}`, 'endpoint');
    res.on('close', () => this.store.delete(entry.id));
  }

  async post(req: IncomingMessage, res: ServerResponse, principal: Principal, url: URL): Promise<void> {
    const id = url.searchParams.get('session_id');
    if (!id) {
      sendRpcError(res, 400, 'Bad Request: session_id is required');
      return;
    }
    const entry = this.store.find(id, 'sse', principal);
    const sequencer = entry && this.sequencers.get(entry);
    if (!entry || !sequencer) {
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
    entry.touch();
    sendEmpty(res, 202);
    sequencer.submit(message, async () => {
      try {
        const carrier = this.protocol.tracing ? { carrier: req.headers } : {};
        const result = await entry.session.handle(message, { principal, ...carrier });
        if (result !== undefined) entry.send(result);
      } catch (error) {
        this.protocol.layer.logger.error({ err: error }, 'sse message failed');
        entry.send(errorResponse(null, { code: ErrorCode.InternalError, message: 'Internal error' }));
      }
    });
  }
}
