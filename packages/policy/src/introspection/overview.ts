/** `cloudg://policy`: the policy's `describe()` with vault statistics and decision counters, for any caller. */
import type { PolicyDescriptionView } from '@cloudg/core';
import { listProfiles } from '../load/profiles.js';
import type { NormalizedSpec } from '../pipeline/specs.js';
import type { IntrospectionHost } from './host.js';
import { nonZeroCounters, sortedCounts } from './status.js';

/**
 * A transform by type, id and the names of its options. The values stay out: an alias table maps
 * real names to aliases and a custom pattern says what it looks for, and this view is only
 * `internal`. (The reference prints the specs whole; that would undo the aliasing it describes.)
 */
function specOutline(spec: NormalizedSpec): { type: string; id: string; options: string[] } {
  return { type: spec.type, id: spec.id, options: Object.keys(spec.options).sort() };
}

export function policyOverview(host: IntrospectionHost): PolicyDescriptionView {
  const described = host.describe();
  const stats = host.vault.stats?.();
  const transformOptions: Record<string, string[]> = {};
  for (const [type, options] of Object.entries(described.transform_options)) {
    transformOptions[type] = Object.keys(options).sort();
  }
  return {
    ...described,
    transforms: described.transforms.map(specOutline),
    input_transforms: described.input_transforms.map(specOutline),
    transform_options: transformOptions,
    vault: {
      ...described.vault,
      scope: stats?.scope ?? described.vault.scope,
      entries: stats?.entries ?? 0,
      by_entity: sortedCounts(stats?.entities ?? {}),
      key_source: stats?.key_source ?? null,
      counters: stats?.counters ?? {},
    },
    counters: nonZeroCounters(host.counters),
    available_profiles: listProfiles(),
  };
}
