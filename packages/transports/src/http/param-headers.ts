/**
 * `Mcp-Param-{Name}` headers (2026-07-28): tool parameters whose schema carries `x-mcp-header`
 * are mirrored into headers by the client, and the server checks each against the body (-32020).
 * The annotations are read from the tool's published input schema, once per spec.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode } from '@cloudg/core';
import { ProtocolError } from '../jsonrpc/errors.js';
import { isObject } from '../jsonrpc/messages.js';
import { headerValue } from './header-value.js';
import { decodeHeaderValue } from './modern-headers.js';

export interface ParamHeader {
  /** The name after `Mcp-Param-`, as annotated. */
  name: string;
  /** The chain of `properties` keys leading to the parameter. */
  path: string[];
}

const cache = new WeakMap<object, ParamHeader[]>();

/** Annotated parameters reachable from the root through `properties` only (as the spec requires). */
export function paramHeaders(schema: Record<string, unknown>): ParamHeader[] {
  const cached = cache.get(schema);
  if (cached) return cached;
  const found: ParamHeader[] = [];
  const walk = (node: Record<string, unknown>, path: string[]) => {
    if (!isObject(node.properties)) return;
    for (const [key, child] of Object.entries(node.properties)) {
      if (!isObject(child)) continue;
      const header = child['x-mcp-header'];
      if (typeof header === 'string' && header !== '') found.push({ name: header, path: [...path, key] });
      walk(child, [...path, key]);
    }
  };
  walk(schema, []);
  cache.set(schema, found);
  return found;
}

function valueAt(args: unknown, path: string[]): unknown {
  let value = args;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

function matches(header: string, value: unknown): boolean {
  if (typeof value === 'string') return header === value;
  if (typeof value === 'boolean') return header === String(value);
  // Integers compare numerically, so `42.0` and `42` agree.
  if (typeof value === 'number') return header.trim() !== '' && Number(header) === value;
  return false;
}

/** The first annotated parameter whose header is missing, broken or different from the body. */
export function checkParamHeaders(
  headers: IncomingHttpHeaders,
  params: readonly ParamHeader[],
  args: unknown,
): ProtocolError | undefined {
  for (const param of params) {
    const value = valueAt(args, param.path);
    if (value === undefined || value === null) continue;
    const text = headerValue(headers, `mcp-param-${param.name.toLowerCase()}`);
    const decoded = text === undefined ? undefined : decodeHeaderValue(text);
    if (decoded === undefined || !matches(decoded, value)) {
      return new ProtocolError(
        ErrorCode.HeaderMismatch,
        `Mcp-Param-${param.name} header does not match the request body's '${param.path.join('.')}' argument`,
      );
    }
  }
  return undefined;
}
