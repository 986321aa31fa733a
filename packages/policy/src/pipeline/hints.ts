/** Tool transform hints (section 10.4), read into one shape. */

import { isDict } from '../load/merge.js';
import type { TransformSpecInput } from '../schema/config.js';
import { canonicalType, type NormalizedSpec, normalizePolicySpec } from './specs.js';

export interface TransformHintSet {
  /** Output transforms to remove, by canonical type or id; `all` removes every one. */
  skip: ReadonlySet<string>;
  skipAll: boolean;
  pseudonymize: boolean;
  project: Record<string, unknown> | undefined;
  /** Appended whatever `honor_hints` says: a tool may add protection. */
  extra: NormalizedSpec[];
  skipInput: ReadonlySet<string>;
  inputGuard: boolean;
  depseudonymize: boolean;
}

function names(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function nameSet(value: unknown): Set<string> {
  const out = new Set<string>();
  for (const name of names(value)) {
    out.add(name);
    out.add(canonicalType(name));
  }
  return out;
}

export const NO_HINTS: TransformHintSet = Object.freeze({
  skip: new Set<string>(),
  skipAll: false,
  pseudonymize: true,
  project: undefined,
  extra: [],
  skipInput: new Set<string>(),
  inputGuard: true,
  depseudonymize: true,
});

export function readHints(hints: Record<string, unknown> | undefined): TransformHintSet {
  if (!hints || Object.keys(hints).length === 0) return NO_HINTS;
  const skip = nameSet(hints.skip);
  const project = hints.project ?? hints.projection;
  const extra = [...asSpecs(hints.transforms), ...asSpecs(hints.extra)];
  return {
    skip,
    skipAll: skip.has('*') || skip.has('all'),
    pseudonymize: (hints.pseudonymize ?? hints.pseudonymise) !== false,
    project: isDict(project) ? project : undefined,
    extra,
    skipInput: nameSet(hints.skip_input),
    inputGuard: hints.input_guard !== false,
    depseudonymize: hints.depseudonymize !== false,
  };
}

function asSpecs(value: unknown): NormalizedSpec[] {
  if (!Array.isArray(value)) return [];
  return value.map((spec) => normalizePolicySpec(spec as TransformSpecInput));
}
