/**
 * The error model. Every error a cloudg package raises is an `McpLayerError` (`@cloudg/privacy`,
 * which depends on nothing, has `PrivacyError` of the same shape): a `code`, a message written
 * for the model and structured `data`. Codes are numbers for the JSON-RPC and MCP codes a request
 * fails with (-32602, -31001...) and strings for everything else (`timeout`, `invalid_policy`,
 * `duplicate_spec`...). Messages never quote the caller's values; those travel in `data`.
 */
import type { Content } from './content.js';

/** JSON-RPC, MCP and cloudg error codes. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  AccessDenied: -31001,
  RateLimited: -31029,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Codes written into `cloudg/error_code` for failures that have no numeric code. */
export const StringErrorCode = {
  Timeout: 'timeout',
  HandlerError: 'handler_error',
  /** The person declined (or dismissed) the confirmation the policy asks for. */
  Declined: 'declined',
} as const;

export interface McpLayerErrorOptions {
  data?: unknown;
  cause?: unknown;
  /**
   * What the model should see besides the message, as further content blocks of a tool's error
   * result: close matches, candidates. They pass through the caller's output pipeline like any
   * result, so build them from data (`structuredText`) for the pipeline to transform by key.
   * Transports cannot carry them on a JSON-RPC error; keep the same facts in `data`.
   */
  hints?: readonly Content[];
}

/** Base class of every cloudg error. Code -32603 unless a subclass says otherwise. */
export class McpLayerError extends Error {
  readonly code: number | string = ErrorCode.InternalError;
  readonly data: unknown;
  /** Content blocks shown after the message in a tool's error result (see `McpLayerErrorOptions.hints`). */
  readonly hints: readonly Content[];

  constructor(message: string, options: McpLayerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.data = options.data;
    this.hints = options.hints ?? [];
  }

  /**
   * The JSON-RPC error object for this error. JSON-RPC codes are numbers, so an error with a
   * string code goes on the wire as an internal error (-32603) with its message and data.
   */
  toJsonRpc(): { code: number; message: string; data?: unknown } {
    const code = typeof this.code === 'number' ? this.code : ErrorCode.InternalError;
    return this.data === undefined
      ? { code, message: this.message }
      : { code, message: this.message, data: this.data };
  }
}

/** One problem found while validating arguments, in the shape clients see in `data`. */
export interface ArgumentIssue {
  loc: string;
  msg: string;
  type: string;
}

/** Arguments that do not match the declared schema, or a refused argument value (-32602). */
export class InvalidArgumentsError extends McpLayerError {
  override readonly code: number = ErrorCode.InvalidParams;
}

/** An unknown or hidden tool, resource or prompt, or a missing object inside a handler (-32602). */
export class NotFoundError extends McpLayerError {
  override readonly code: number = ErrorCode.InvalidParams;
}

/** A policy denial or a path outside the allowed roots (-31001). */
export class AccessDeniedError extends McpLayerError {
  override readonly code: number = ErrorCode.AccessDenied;
}

/** A token bucket that is empty or a concurrency queue that timed out (-31029). */
export class RateLimitedError extends McpLayerError {
  override readonly code: number = ErrorCode.RateLimited;
}

/** A tool handler that ran past its timeout. Internal: turned into a `timeout` error result. */
export class ToolTimeoutError extends McpLayerError {
  override readonly code: string = StringErrorCode.Timeout;
}

export function isMcpLayerError(value: unknown): value is McpLayerError {
  return value instanceof McpLayerError;
}

/** The type name reported for a thrown value: its `name`, else its class, else `Error`. */
export function errorTypeName(error: unknown): string {
  if (!(error instanceof Error)) return 'Error';
  return error.name && error.name !== 'Error' ? error.name : (error.constructor?.name ?? 'Error');
}

/** `Type: message` for an unexpected exception, as reported to the model. */
export function describeException(error: unknown): string {
  if (error instanceof Error) return `${errorTypeName(error)}: ${error.message}`;
  return `Error: ${String(error)}`;
}

/**
 * The caller cancelled the request. Transports send no response for a cancelled request; the
 * audit log records the outcome as `cancelled`.
 */
export class CancelledError extends McpLayerError {
  override readonly code: number = -32800;
}

/** The error a cancelled call ends with: the abort reason when it is a layer error (a timeout), else CancelledError. */
export function cancellationError(reason: unknown): McpLayerError {
  return reason instanceof McpLayerError ? reason : new CancelledError('Request cancelled');
}
