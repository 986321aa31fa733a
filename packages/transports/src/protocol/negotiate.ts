/** Version negotiation (MCP.md 6.4): what `initialize` answers and which versions an era accepts. */
import { BATCH_VERSIONS, HANDSHAKE_VERSIONS, LATEST_HANDSHAKE_VERSION, MODERN_VERSIONS } from './versions.js';

export function isHandshakeVersion(value: unknown): value is string {
  return typeof value === 'string' && (HANDSHAKE_VERSIONS as readonly string[]).includes(value);
}

export function isModernVersion(value: unknown): value is string {
  return typeof value === 'string' && (MODERN_VERSIONS as readonly string[]).includes(value);
}

/**
 * The version an `initialize` is answered with: the requested one when it is a handshake
 * revision, otherwise (unknown, or 2026-07-28, which has no handshake) the latest handshake one.
 */
export function negotiateVersion(requested: unknown): string {
  return isHandshakeVersion(requested) ? requested : LATEST_HANDSHAKE_VERSION;
}

export function allowsBatches(version: string | undefined): boolean {
  return version !== undefined && BATCH_VERSIONS.includes(version);
}
