/** Server implementations. Only the native one is built in; `auto` picks it. */
export const AVAILABLE_FLAVORS = ['native'] as const;
export const FLAVOR_NAMES = ['auto', 'native', 'sdk', 'fastmcp'] as const;
export type Flavor = (typeof FLAVOR_NAMES)[number];

/** Thrown for server options that cannot work together, before anything starts. */
export class ServeOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServeOptionsError';
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
