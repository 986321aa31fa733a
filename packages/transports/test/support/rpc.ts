/** Helpers to drive a protocol session in memory. */
import { MetaKeys } from '../../src/index.js';

export const ENVELOPE = {
  [MetaKeys.protocolVersion]: '2026-07-28',
  [MetaKeys.clientCapabilities]: {},
  [MetaKeys.clientInfo]: { name: 'test', version: '1' },
};

export function req(id: number | string, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0' as const, id, method, params };
}

/** A 2026 request: params plus the envelope (and extra `_meta` entries). */
export function modern(id: number | string, method: string, params: Record<string, unknown> = {}, meta = {}) {
  return { jsonrpc: '2.0' as const, id, method, params: { ...params, _meta: { ...ENVELOPE, ...meta } } };
}

export function initialize(id: number | string = 1, protocolVersion = '2025-11-25') {
  return req(id, 'initialize', {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: 'test', version: '1' },
  });
}

export const initialized = { jsonrpc: '2.0' as const, method: 'notifications/initialized' };
