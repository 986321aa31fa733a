/** Server implementations. Only the native one is built in; `auto` picks it. */
import { McpLayerError } from '@cloudg/core';

export const AVAILABLE_FLAVORS = ['native'] as const;
export const FLAVOR_NAMES = ['auto', 'native', 'sdk', 'fastmcp'] as const;
export type Flavor = (typeof FLAVOR_NAMES)[number];

/** Thrown for server options that cannot work together, before anything starts (code `invalid_serve_options`). */
export class ServeOptionsError extends McpLayerError {
  override readonly code = 'invalid_serve_options';
  declare readonly data: Record<string, unknown>;

  constructor(message: string, data: Record<string, unknown> = {}) {
    super(message, { data });
  }
}

/** The flavor that will actually answer. */
export function resolveFlavor(flavor: string | undefined): 'native' {
  const value = (flavor ?? 'auto').toLowerCase();
  if (value === 'auto' || value === 'native') return 'native';
  if (value === 'sdk' || value === 'fastmcp') {
    throw new ServeOptionsError(
      `The ${value} flavor is not available in this build; available flavors: ${AVAILABLE_FLAVORS.join(', ')} (auto selects native)`,
    );
  }
  throw new ServeOptionsError(`Unknown flavor '${value}'; choose one of: ${FLAVOR_NAMES.join(', ')}`);
}

/** The options of section 5.3 that only some flavors can serve. */
export interface FlavorSensitiveOptions {
  corsOrigins?: readonly string[];
  jsonResponse?: boolean;
  stateless?: boolean;
}

/** Refuse option combinations the requested flavor cannot serve. */
export function checkFlavorCombination(
  flavor: string | undefined,
  transport: string,
  options: FlavorSensitiveOptions,
): void {
  const value = (flavor ?? 'auto').toLowerCase();
  const foreign = value === 'sdk' || value === 'fastmcp';
  if (foreign && (options.corsOrigins?.length ?? 0) > 0) {
    throw new ServeOptionsError('--cors-origin is only supported by the native flavor (use --flavor native)');
  }
  if (value === 'fastmcp' && transport === 'sse' && (options.jsonResponse || options.stateless)) {
    throw new ServeOptionsError(
      '--json-response / --stateless apply to Streamable HTTP; the fastmcp flavor cannot combine them with --transport sse',
    );
  }
}
