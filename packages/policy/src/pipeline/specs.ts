/**
 * Transform specs in one normal form: canonical type, id and options. The policy reasons about
 * types (reordering aliases, merging options, honouring hints) before @cloudg/privacy builds them;
 * a type nobody registered passes through here and fails when it is built.
 */
import { canonicalName, type NormalizedSpec, resolveTransformType } from '@cloudg/privacy';
import { InvalidTransformError } from '../errors.js';
import { isDict } from '../load/merge.js';
import type { TransformSpecInput } from '../schema/config.js';

/**
 * The normal form is @cloudg/privacy's `NormalizedSpec` (canonical type, id defaulting to the
 * type, options); here an unregistered type passes through lower-cased instead of failing.
 */
export type { NormalizedSpec };

/** The canonical type of a transform name or alias, as @cloudg/privacy's registry knows it. */
export function canonicalType(name: string): string {
  return resolveTransformType(name) ?? canonicalName(name);
}

const SPEC_KEYS = new Set(['type', 'transform', 'name', 'id', 'options']);

export function normalizePolicySpec(spec: TransformSpecInput): NormalizedSpec {
  if (typeof spec === 'string') {
    const type = canonicalType(spec);
    return { type, id: type, options: {} };
  }
  const raw = spec.type ?? spec.transform ?? spec.name;
  if (typeof raw !== 'string' || raw === '') {
    throw new InvalidTransformError("A transform mapping needs 'type'");
  }
  const type = canonicalType(raw);
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (!SPEC_KEYS.has(key)) options[key] = value;
  }
  Object.assign(options, spec.options ?? {});
  return { type, id: typeof spec.id === 'string' ? spec.id : type, options };
}

/** Merge `source` into a copy of `target`: mappings recurse, lists and scalars are replaced. */
export function deepMerge(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const current = out[key];
    out[key] = isDict(current) && isDict(value) ? deepMerge(current, value) : value;
  }
  return out;
}
