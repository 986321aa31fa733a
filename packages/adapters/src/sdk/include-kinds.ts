/**
 * What a mount registers (`include`, MCP.md 8.1) and the server capabilities that follows from
 * it. Kept apart from the binding so the SDK flavor and any future host share one definition.
 */
import { LayerConfigError } from '@cloudg/core';

export const INCLUDE_KINDS = [
  'tools',
  'resources',
  'templates',
  'prompts',
  'completions',
  'logging',
  'subscriptions',
] as const;
export type IncludeKind = (typeof INCLUDE_KINDS)[number];

export function includeSet(include: Iterable<IncludeKind> | undefined): Set<IncludeKind> {
  if (include === undefined) return new Set(INCLUDE_KINDS);
  const set = new Set<IncludeKind>();
  for (const kind of include) {
    if (!(INCLUDE_KINDS as readonly string[]).includes(kind)) {
      throw new LayerConfigError(`Unknown include kind; choose from: ${INCLUDE_KINDS.join(', ')}`, 'include');
    }
    set.add(kind);
  }
  return set;
}

/** The capabilities to declare for what is included; `listChanged` adds the list-changed flags. */
export function capabilitiesFor(
  include: ReadonlySet<IncludeKind>,
  listChanged: boolean,
): Record<string, Record<string, boolean>> {
  const capabilities: Record<string, Record<string, boolean>> = {};
  if (include.has('tools')) capabilities.tools = listChanged ? { listChanged: true } : {};
  if (include.has('resources') || include.has('templates')) {
    capabilities.resources = {
      ...(include.has('subscriptions') ? { subscribe: true } : {}),
      ...(listChanged ? { listChanged: true } : {}),
    };
  }
  if (include.has('prompts')) capabilities.prompts = listChanged ? { listChanged: true } : {};
  if (include.has('completions')) capabilities.completions = {};
  if (include.has('logging')) capabilities.logging = {};
  return capabilities;
}
