/** Small writers for plain HTTP answers; every answer names the server. */
import type { ServerResponse } from 'node:http';
import { ErrorCode, SERVER_BUSY_MESSAGE } from '@cloudg/core';

export const SERVER_HEADER = 'cloudg-mcp';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    Server: SERVER_HEADER,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** An HTTP-level rejection: the status with a JSON-RPC error body whose id is null (or given). */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  options: {
    code?: number;
    id?: string | number | null;
    data?: unknown;
    headers?: Record<string, string>;
  } = {},
): void {
  const error: Record<string, unknown> = { code: options.code ?? ErrorCode.InvalidRequest, message };
  if (options.data !== undefined) error.data = options.data;
  sendJson(res, status, { jsonrpc: '2.0', id: options.id ?? null, error }, options.headers);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, Server: SERVER_HEADER, 'Content-Length': 0 });
  res.end();
}

/** A principal over its session quota (`maxSessionsPerPrincipal`) with no idle session to end. */
export function sendTooManySessions(res: ServerResponse, limit: number): void {
  sendRpcError(
    res,
    429,
    `Too many sessions for this principal: the limit is ${limit} (maxSessionsPerPrincipal) and none is idle; end sessions you no longer use with DELETE`,
    { code: ErrorCode.RateLimited, data: { limit, option: 'maxSessionsPerPrincipal' } },
  );
}

/** Seconds a shed client is told to wait before it retries. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** A request shed because it could not start within `maxQueueWaitMs`: 503, retry later (-31029). */
export function sendBusy(
  res: ServerResponse,
  id: string | number | null,
  limits: { maxInFlightRequests: number; maxQueueWaitMs: number },
): void {
  sendRpcError(res, 503, SERVER_BUSY_MESSAGE, {
    code: ErrorCode.RateLimited,
    id,
    headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
    data: {
      retry_after: BUSY_RETRY_AFTER_SECONDS,
      max_in_flight_requests: limits.maxInFlightRequests,
      max_queue_wait_ms: limits.maxQueueWaitMs,
    },
  });
}
