import { type AnySpec, Registry } from '@cloudg/core';

/** Capabilities `--read-only` removes: writing files, reaching cloud APIs, running programs. */
export const READ_ONLY_DROPPED_CAPABILITIES = ['write_fs', 'cloud_access', 'exec'] as const;

function isReadOnlySafe(spec: AnySpec<unknown>): boolean {
  if (spec.kind !== 'tool') return true;
  if (spec.annotations.destructiveHint === true) return false;
  return !READ_ONLY_DROPPED_CAPABILITIES.some((cap) => spec.capabilities.has(cap));
}

/**
 * A copy of the registry without tools that write files, reach cloud APIs, run programs or are
 * annotated destructive. In-memory changes (loading datasets, suppressing findings) stay.
 */
export function readOnlyRegistry<TApp>(registry: Registry<TApp>): Registry<TApp> {
  const out = new Registry<TApp>();
  for (const spec of registry.all()) if (isReadOnlySafe(spec as AnySpec<unknown>)) out.add(spec);
  return out;
}
