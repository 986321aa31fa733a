/**
 * The 2026-07-28 request headers that repeat parts of the body: `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` (plain, or `=?base64?...?=` for values that are not header-safe).
 * A mismatch is -32020 (HeaderMismatch) with HTTP 400.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode } from '@cloudg/core';
import { ProtocolError } from '../jsonrpc/errors.js';
import { isObject } from '../jsonrpc/messages.js';
import { envelopeVersion } from '../protocol/envelope.js';
import { headerValue } from './header-value.js';

/**
 * Which body parameter `Mcp-Name` repeats, per method. The tasks extension adds its methods, so
 * that a load balancer can route them to the replica running the task.
 */
const NAMED_PARAMS: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * A header value with the base64 sentinel form decoded; undefined when the encoding is broken.
 * Only a value with both markers is encoded: anything else is taken literally.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=') || value.length < 11) return value;
  const match = SENTINEL.exec(value);
  if (!match || (match[1] ?? '').length % 4 !== 0) return undefined;
  const bytes = Buffer.from(match[1] ?? '', 'base64');
  const text = bytes.toString('utf8');
  // Reject bytes that are not valid UTF-8 rather than compare a replacement character.
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

function mismatch(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.HeaderMismatch, message);
}

/** The first header that is missing or disagrees with the body, as a -32020 error. */
export function checkModernHeaders(
  headers: IncomingHttpHeaders,
  message: Record<string, unknown>,
): ProtocolError | undefined {
  const params = isObject(message.params) ? message.params : {};
  if (headerValue(headers, 'mcp-protocol-version') !== envelopeVersion(params)) {
    return mismatch("MCP-Protocol-Version header does not match the request envelope's protocol version");
  }
  if (headerValue(headers, 'mcp-method') !== message.method) {
    return mismatch("Mcp-Method header does not match the request body's method");
  }
  const key = typeof message.method === 'string' ? NAMED_PARAMS[message.method] : undefined;
  if (key) {
    const raw = headerValue(headers, 'mcp-name');
    const decoded = raw === undefined ? undefined : decodeHeaderValue(raw);
    if (decoded === undefined || decoded !== params[key]) {
      return mismatch(`Mcp-Name header does not match the request body's '${key}' parameter`);
    }
  }
  return undefined;
}
