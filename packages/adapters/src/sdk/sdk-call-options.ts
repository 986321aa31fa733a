/**
 * A request's layer call options from the SDK's context: the principal, the request's abort
 * signal and id, progress as `notifications/progress` when the client sent a token, and log
 * notifications through the SDK (which applies the client's level on the handshake era and drops
 * what a 2026 request did not ask for).
 */
import type { LogLevel, Principal } from '@cloudg/core';
import type { LoggingLevel, ServerContext } from '@modelcontextprotocol/server';
import type { DispatchOptions } from '../export/layer-methods.js';

function ignore(): void {}

function isProgressToken(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export function sdkCallOptions(ctx: ServerContext, principal: Principal): DispatchOptions {
  const token = ctx.mcpReq._meta?.progressToken;
  const opts: DispatchOptions = {
    principal,
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    // The SDK applies the client's level (handshake era) and drops what 2026 requests did not ask for.
    onLog: (level: LogLevel, data, logger) => {
      try {
        ctx.mcpReq.log(level as LoggingLevel, data, logger).catch(ignore);
      } catch {
        // A log the era cannot carry is dropped, as on the native server.
      }
    },
  };
  if (isProgressToken(token)) {
    opts.onProgress = (progress, total, message) => {
      const params: Record<string, unknown> = { progressToken: token, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(ignore);
    };
  }
  return opts;
}
