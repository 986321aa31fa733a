/**
 * Answering a POST that holds requests: JSON, or an SSE stream carrying the request's own
 * notifications and then its response (MCP.md 6.2).
 */
import type { ServerResponse } from 'node:http';
import { ErrorCode, type Principal } from '@cloudg/core';
import { isErrorResponse, isObject, isValidId, looksLikeRequest } from '../jsonrpc/messages.js';
import { isBatchLimitRefusal } from '../protocol/batch-limits.js';
import { findMethod } from '../protocol/methods.js';
import type { TraceCarrier } from '../protocol/observe.js';
import type { HandleResult, Session } from '../protocol/session.js';
import type { Accepts } from './accept.js';
import { sendEmpty, sendJson, sendRpcError } from './responses.js';
import { SseStream } from './sse-stream.js';

/** Methods that stream by default: they may send progress and log notifications. */
const STREAMING_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

export interface RespondOptions {
  accepts: Accepts;
  jsonResponse: boolean;
  keepaliveMs: number;
  modern: boolean;
  headers?: Record<string, string>;
  /** The caller of this request, when it is not the session's own principal. */
  principal?: Principal;
  /**
   * Called with the result before it is written (to drop a failed session, or to write a shared
   * session's changes before the client can send its next request elsewhere); awaited.
   */
  onResult?: (result: HandleResult) => void | Promise<void>;
  /** The request's headers, for the W3C trace context when tracing is on. */
  carrier?: TraceCarrier;
}

function statusOf(result: HandleResult, modern: boolean): number {
  // A batch over maxBatchItems or maxBatchResponseBytes: send a smaller one.
  if (isBatchLimitRefusal(result)) return 413;
  // A 2026 request for a method that does not exist is a 404 (so clients can tell it from a legacy server).
  if (modern && result && !Array.isArray(result) && isErrorResponse(result)) {
    if (result.error.code === ErrorCode.MethodNotFound) return 404;
    // A capability the client did not declare: 400, as MissingRequiredClientCapabilityError requires.
    if (result.error.code === ErrorCode.MissingRequiredClientCapability) return 400;
  }
  return 200;
}

export async function respond(
  res: ServerResponse,
  session: Session,
  message: unknown,
  options: RespondOptions,
): Promise<void> {
  const { accepts, modern } = options;
  const principal = {
    ...(options.principal === undefined ? {} : { principal: options.principal }),
    ...(options.carrier === undefined ? {} : { carrier: options.carrier }),
  };
  const headers = options.headers ?? {};
  const items = Array.isArray(message) ? message : [message];
  const single = !Array.isArray(message) && looksLikeRequest(message);
  const method = single && isObject(message) ? String(message.method) : undefined;

  if (!items.some(looksLikeRequest)) {
    const result = await session.handle(message, principal);
    await options.onResult?.(result);
    if (result === undefined) sendEmpty(res, 202, headers);
    else sendJson(res, statusOf(result, modern), result, headers);
    return;
  }

  const isListen = method === 'subscriptions/listen';
  if (isListen && !accepts.sse) {
    sendRpcError(res, 406, 'Not Acceptable: subscriptions/listen requires Accept: text/event-stream', {
      headers,
    });
    return;
  }
  const known = method !== undefined && findMethod(modern ? 'modern' : 'legacy', method) !== undefined;
  const useSse =
    single &&
    known &&
    accepts.sse &&
    (isListen || !accepts.json || (!options.jsonResponse && STREAMING_METHODS.has(method ?? '')));

  // A 2026 request, or a listen stream, is cancelled when its client goes away.
  if ((modern || isListen) && single && isObject(message) && isValidId(message.id)) {
    const id = message.id;
    res.on('close', () => {
      if (!res.writableEnded) session.cancel(id);
    });
  }

  if (!useSse) {
    const result = await session.handle(message, principal);
    await options.onResult?.(result);
    if (res.destroyed) return;
    if (result === undefined) sendEmpty(res, 202, headers);
    else sendJson(res, statusOf(result, modern), result, headers);
    return;
  }

  // The stream opens on the first notification or the next turn of the event loop, whichever
  // comes first. A 2026 request refused before then (a capability the client did not declare)
  // is answered as JSON, so it can carry the HTTP status its error requires (400).
  let stream: SseStream | undefined;
  let done = false;
  const open = (): SseStream => {
    stream ??= new SseStream(res, options.keepaliveMs, headers);
    return stream;
  };
  setImmediate(() => {
    if (!done) open();
  });
  const result = await session.handle(message, { ...principal, sink: (m) => open().send(m) });
  done = true;
  await options.onResult?.(result);
  if (!stream && modern && accepts.json && result !== undefined && statusOf(result, modern) !== 200) {
    sendJson(res, statusOf(result, modern), result, headers);
    return;
  }
  const sse = open();
  if (result !== undefined) sse.send(result);
  sse.end();
}
