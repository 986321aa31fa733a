/**
 * Limits on a JSON-RPC batch (handshake versions that allow batches): how many messages it may
 * hold, and how many bytes its answers may add up to. Either refusal is one error for the whole
 * batch, id null, naming the limit and the option that sets it.
 */
import { ErrorCode } from '@cloudg/core';
import { errorResponse, type JsonRpcFailure } from '../jsonrpc/messages.js';

export const DEFAULT_MAX_BATCH_ITEMS = 100;
export const DEFAULT_MAX_BATCH_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Refusals built here; HTTP answers them with 413 (send a smaller batch). */
const refusals = new WeakSet<object>();

export function isBatchLimitRefusal(value: unknown): boolean {
  return typeof value === 'object' && value !== null && refusals.has(value);
}

function refusal(message: string, data: Record<string, unknown>): JsonRpcFailure {
  const response = errorResponse(null, { code: ErrorCode.InvalidRequest, message, data });
  refusals.add(response);
  return response;
}

export function tooManyItems(items: number, limit: number): JsonRpcFailure {
  return refusal(`Batch too large: ${items} messages, the limit is ${limit} (maxBatchItems)`, {
    limit,
    items,
    option: 'maxBatchItems',
  });
}

export function responseTooLarge(limit: number): JsonRpcFailure {
  return refusal(
    `Batch response too large: the answers exceed ${limit} bytes (maxBatchResponseBytes); send fewer requests per batch`,
    { limit, option: 'maxBatchResponseBytes' },
  );
}

export function checkLimit(value: number, name: string): number {
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${name} must be a positive integer`);
  return value;
}
