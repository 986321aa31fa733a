/** What a method implementation knows about the request it serves. */
import {
  type CallOptions,
  type Cancellation,
  type ClientPort,
  type LogLevel,
  MCP_LOG_LEVELS,
  type Principal,
} from '@cloudg/core';
import { type JsonRpcMessage, notification, type RequestId } from '../jsonrpc/messages.js';
import type { Envelope } from './envelope.js';
import type { Session } from './session.js';
import type { Era } from './versions.js';

export interface RequestContext {
  session: Session;
  /**
   * Who sent this request: the session's principal unless the transport resolved the caller of
   * this very request (an HTTP session serves each request as the credential that sent it).
   */
  principal: Principal;
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
  era: Era;
  /** The 2026 envelope of this request (modern era only). */
  envelope: Envelope | undefined;
  /** Aborted by `notifications/cancelled`, a dropped 2026 stream or shutdown. */
  cancellation: Cancellation;
  /** Whether this request has a stream of its own (an SSE answer); else `notify` uses the session's channel. */
  ownStream: boolean;
  /** Send a notification that belongs to this request: its SSE stream, or the session's channel. */
  notify(message: JsonRpcMessage): void;
  /** How this request asks its client, set by methods that may ask (see client-requests.ts). */
  client?: ClientPort;
}

function isProgressToken(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function reaches(level: LogLevel, threshold: LogLevel | undefined): boolean {
  return threshold !== undefined && MCP_LOG_LEVELS.indexOf(level) >= MCP_LOG_LEVELS.indexOf(threshold);
}

/**
 * Layer call options for a request: the request's principal, the request's signal, and progress
 * and log callbacks that turn into notifications on the request's own channel. Progress needs a
 * `progressToken`; logs need a level: the session's `logging/setLevel` on the handshake era, the
 * request's `logLevel` on 2026-07-28, where none means no log notifications at all.
 */
export function callOptions(rc: RequestContext): CallOptions<unknown> {
  const meta = rc.params._meta;
  const token =
    typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).progressToken : undefined;
  const options: CallOptions<unknown> = {
    principal: rc.principal,
    requestId: rc.id,
    signal: rc.cancellation,
    session: rc.session,
    ...(rc.client === undefined ? {} : { client: rc.client }),
    onLog: (level, data, logger) => {
      const threshold = rc.era === 'modern' ? rc.envelope?.logLevel : rc.session.logLevel;
      if (!reaches(level, threshold) || rc.cancellation.aborted) return;
      rc.notify(notification('notifications/message', { level, logger, data }));
    },
  };
  if (isProgressToken(token)) {
    options.onProgress = (progress, total, message) => {
      if (rc.cancellation.aborted) return;
      const params: Record<string, unknown> = { progressToken: token, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      rc.notify(notification('notifications/progress', params));
    };
  }
  return options;
}
