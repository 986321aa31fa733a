/**
 * Which implementation speaks MCP (MCP.md 7): the native server of @cloudg/transports, the
 * official SDK's low-level `Server` with the layer registered into it (@cloudg/adapters/sdk), or a
 * `FastMCP` server of the npm fastmcp framework (@cloudg/adapters/fastmcp). The layer, the policy
 * and the results are the same; what differs is the wire code, the protocol eras and which serve
 * options apply.
 */
import { McpLayerError } from '@cloudg/core';

/** The flavors this build serves; `--flavor` help lists these and `auto`. */
export const AVAILABLE_FLAVORS = ['native', 'sdk', 'fastmcp'] as const;
export const FLAVOR_NAMES = ['auto', ...AVAILABLE_FLAVORS] as const;
export type Flavor = (typeof FLAVOR_NAMES)[number];
export type ResolvedFlavor = (typeof AVAILABLE_FLAVORS)[number];

/** Thrown for server options that cannot work together, before anything starts (code `invalid_serve_options`). */
export class ServeOptionsError extends McpLayerError {
  override readonly code = 'invalid_serve_options';
  declare readonly data: Record<string, unknown>;

  constructor(message: string, data: Record<string, unknown> = {}) {
    super(message, { data });
  }
}

/**
 * The flavor that will actually answer. `auto` is `native` here: the reference's `auto` preferred
 * the SDK because its own server was the minimal fallback, but this native server is the complete
 * one (paging, CORS, health, readiness, metrics) and the SDK always ships with this package, so
 * preferring it would silently drop those.
 */
export function resolveFlavor(flavor: string | undefined): ResolvedFlavor {
  const value = (flavor ?? 'auto').toLowerCase();
  if (value === 'auto' || value === 'native') return 'native';
  if (value === 'sdk') return 'sdk';
  if (value === 'fastmcp') return 'fastmcp';
  throw new ServeOptionsError(`Unknown flavor '${value}'; choose one of: ${FLAVOR_NAMES.join(', ')}`, {
    flavor: value,
  });
}

/** The options of section 5.3 that only some flavors can serve. */
export interface FlavorSensitiveOptions {
  corsOrigins?: readonly string[];
  jsonResponse?: boolean;
  stateless?: boolean;
  clientRoots?: boolean;
}

/** Refuse option combinations the requested flavor cannot serve (MCP.md 7, "Which serve options each flavor honors"). */
export function checkFlavorCombination(
  flavor: string | undefined,
  transport: string,
  options: FlavorSensitiveOptions,
): void {
  const value = (flavor ?? 'auto').toLowerCase();
  if ((value === 'sdk' || value === 'fastmcp') && (options.corsOrigins?.length ?? 0) > 0) {
    throw new ServeOptionsError('--cors-origin is only supported by the native flavor (use --flavor native)');
  }
  // The SDK 2.x has no server for the old HTTP+SSE transport (the reference's Python SDK had one).
  if (value === 'sdk' && transport === 'sse') {
    throw new ServeOptionsError(
      '--transport sse is only supported by the native flavor: the SDK has no legacy SSE server (use --flavor native)',
    );
  }
  // fastmcp 4.x for Node serves stdio and its HTTP stream only (the reference's Python fastmcp had SSE).
  if (value === 'fastmcp' && transport === 'sse') {
    throw new ServeOptionsError(
      '--transport sse is only supported by the native flavor: fastmcp 4 has no legacy SSE server (use --flavor native)',
    );
  }
  // MCP.md 7 lists --stateless for fastmcp; fastmcp 4.20 does not announce the per-request sessions
  // of its stateless mode, so cloudg could not be put on them: refused instead of serving without it.
  if (value === 'fastmcp' && options.stateless) {
    throw new ServeOptionsError(
      '--stateless is not supported by the fastmcp flavor: fastmcp does not announce stateless sessions (use --flavor native or sdk)',
    );
  }
  // Client roots are read by the native stdio server only.
  if (value === 'fastmcp' && options.clientRoots) {
    throw new ServeOptionsError(
      '--client-roots is only supported by the native flavor (use --flavor native)',
    );
  }
}
