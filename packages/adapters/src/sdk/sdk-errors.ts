/**
 * Layer errors as the SDK sends them. The SDK turns any thrown value with a numeric `code` into
 * that JSON-RPC error (with its `data`), so the adapter needs none of the SDK's error classes at
 * runtime. The codes are the native server's: a resource that is not found is -32002 on the
 * handshake era and -32602 on 2026-07-28. (The SDK 2.x then rewrites a thrown -32002 to -32602 in
 * both eras; clients are asked to accept either, so the SDK flavor differs from native only there.)
 */
import { ErrorCode, isMcpLayerError, type Logger, NotFoundError } from '@cloudg/core';

export class SdkWireError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'SdkWireError';
    this.code = code;
    this.data = data;
  }
}

export function toSdkError(
  error: unknown,
  method: string,
  modern: boolean,
  params: Record<string, unknown>,
  logger: Logger,
): SdkWireError {
  if (isMcpLayerError(error)) {
    const wire = error.toJsonRpc();
    if (method === 'resources/read' && error instanceof NotFoundError) {
      const code = modern ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
      return new SdkWireError(code, wire.message, wire.data ?? { uri: params.uri });
    }
    return new SdkWireError(wire.code, wire.message, wire.data);
  }
  logger.error({ err: error, method }, 'request failed');
  return new SdkWireError(ErrorCode.InternalError, 'Internal error');
}
