/** Protocol-level failures: a JSON-RPC error with any code, built on core's error model. */
import { ErrorCode, McpLayerError, type McpLayerErrorOptions } from '@cloudg/core';

/** The error a request gets when it cannot be served as sent (bad envelope, unknown method, ...). */
export class ProtocolError extends McpLayerError {
  override readonly code: number;

  constructor(code: number, message: string, options: McpLayerErrorOptions = {}) {
    super(message, options);
    this.code = code;
  }
}

export const parseError = () => new ProtocolError(ErrorCode.ParseError, 'Parse error');
export const invalidRequest = (message = 'Invalid Request') =>
  new ProtocolError(ErrorCode.InvalidRequest, message);
export const invalidParams = (message: string, data?: unknown) =>
  new ProtocolError(ErrorCode.InvalidParams, message, data === undefined ? {} : { data });
export const methodNotFound = (method: string) =>
  new ProtocolError(ErrorCode.MethodNotFound, 'Method not found', { data: method });
