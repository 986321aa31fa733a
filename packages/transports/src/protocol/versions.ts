/** The protocol revisions this server speaks, and what each allows. */

/** Revisions that start with `initialize`, oldest first. */
export const HANDSHAKE_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
/** Revisions with the per-request `_meta` envelope instead of a handshake. */
export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const SUPPORTED_VERSIONS: readonly string[] = [...HANDSHAKE_VERSIONS, ...MODERN_VERSIONS];
export const LATEST_HANDSHAKE_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';
/** JSON-RPC batches were allowed by these revisions only. */
export const BATCH_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26'];
/** The revision assumed for an HTTP request without `MCP-Protocol-Version` (as the spec allows). */
export const DEFAULT_HTTP_VERSION = '2025-03-26';

/** Methods whose 2026 results carry `ttlMs` and `cacheScope`. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'resources/read',
  'server/discover',
]);

export type Era = 'legacy' | 'modern';
