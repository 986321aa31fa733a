/** The one error a request sees when the shared state it needs cannot be reached. */
import { McpLayerError } from '@cloudg/core';

/** Code in `cloudg/error_code`: the request may be retried once Redis answers again. */
export const SHARED_STATE_UNAVAILABLE = 'shared_state_unavailable';

export interface SharedStateUnavailableData {
  retryable: true;
  /** What was being shared: `rate_limits`, `vault` or `response_cache`. */
  state: string;
  /** The client's own words for the failure (refused, timed out, not connected). */
  cause: string;
}

/**
 * Redis could not be reached or did not answer in time. Retryable: nothing was written for the
 * request (its rate-limit token was not taken, its pseudonyms were withdrawn), so sending it again
 * once Redis is back is safe. The message names the cause; it never carries the caller's values.
 */
export class SharedStateUnavailableError extends McpLayerError {
  override readonly code: string = SHARED_STATE_UNAVAILABLE;
  declare readonly data: SharedStateUnavailableData;

  constructor(state: string, cause: unknown) {
    const reason = describeCause(cause);
    super(
      `Shared state unavailable: Redis (${state}) ${reason}; the request was not carried out, retry shortly`,
      {
        data: { retryable: true, state, cause: reason },
        cause,
      },
    );
  }
}

export function describeCause(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  if (/timed? ?out/i.test(message)) return 'did not answer in time';
  if (/ECONNREFUSED/.test(message)) return 'refused the connection';
  if (/writeable|offline|closed|Connection is closed|ECONNRESET|EPIPE/i.test(message))
    return 'is not connected';
  return `failed (${message.slice(0, 120)})`;
}

/** Run one Redis operation; any failure of it becomes SharedStateUnavailableError. */
export async function shared<T>(state: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof McpLayerError) throw error;
    throw new SharedStateUnavailableError(state, error);
  }
}
