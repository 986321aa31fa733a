/**
 * The 2026-07-28 request envelope: protocol version, client capabilities, client info and log
 * level in `params._meta`. Checked in the SDK's order: keys, then (on HTTP) headers, then version.
 */
import { ErrorCode, type LogLevel, MCP_LOG_LEVELS } from '@cloudg/core';
import { ProtocolError } from '../jsonrpc/errors.js';
import { isObject } from '../jsonrpc/messages.js';
import { isModernVersion } from './negotiate.js';
import { MODERN_VERSIONS } from './versions.js';

export const MetaKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

const REQUIRED_KEYS = [MetaKeys.protocolVersion, MetaKeys.clientCapabilities] as const;

export interface Envelope {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo: Record<string, unknown> | undefined;
  /** The threshold for log notifications of this request; none means no log notifications. */
  logLevel: LogLevel | undefined;
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (!isObject(params)) return undefined;
  return isObject(params._meta) ? params._meta : undefined;
}

/** Whether a request carries (part of) the 2026 envelope. */
export function hasEnvelope(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && REQUIRED_KEYS.some((key) => key in meta);
}

/** Step 1: both required keys are there (-32602). */
export function checkEnvelopeKeys(params: unknown): void {
  const meta = metaOf(params) ?? {};
  const missing = REQUIRED_KEYS.filter((key) => !(key in meta));
  if (missing.length > 0) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `params._meta is missing the required envelope key(s): ${missing.join(', ')}`,
      { data: { missing } },
    );
  }
}

/** The envelope's version as sent (for the header comparison), whatever its type. */
export function envelopeVersion(params: unknown): unknown {
  return metaOf(params)?.[MetaKeys.protocolVersion];
}

/** Step 3: the version is a string (-32602) and one this server speaks (-32022); then the rest. */
export function readEnvelope(params: unknown): Envelope {
  checkEnvelopeKeys(params);
  const meta = metaOf(params) ?? {};
  const version = meta[MetaKeys.protocolVersion];
  if (typeof version !== 'string') {
    throw new ProtocolError(ErrorCode.InvalidParams, `${MetaKeys.protocolVersion} must be a string`);
  }
  if (!isModernVersion(version)) {
    throw new ProtocolError(
      ErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version: ${version}`,
      {
        data: { supported: [...MODERN_VERSIONS], requested: version },
      },
    );
  }
  const capabilities = meta[MetaKeys.clientCapabilities];
  if (!isObject(capabilities)) {
    throw new ProtocolError(ErrorCode.InvalidParams, `${MetaKeys.clientCapabilities} must be an object`);
  }
  const info = meta[MetaKeys.clientInfo];
  const level = meta[MetaKeys.logLevel];
  if (level !== undefined && !(MCP_LOG_LEVELS as readonly unknown[]).includes(level)) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `${MetaKeys.logLevel} must be one of ${MCP_LOG_LEVELS.join(', ')}`,
    );
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    clientInfo: isObject(info) ? info : undefined,
    logLevel: level as LogLevel | undefined,
  };
}
