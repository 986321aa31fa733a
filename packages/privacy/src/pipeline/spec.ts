/**
 * Transform specs: a type name, or a mapping with `type` (or `transform`, `name`), an
 * optional `id` and `options` (options may also be written inline).
 */
import { TransformSpecError, UnknownTransformError } from '../errors.js';
import { isRecord } from '../util/options.js';
import { resolveTransformType, transformTypes } from './registry.js';

export type TransformSpec =
  | string
  | {
      type?: string;
      transform?: string;
      name?: string;
      id?: string;
      options?: Record<string, unknown>;
      [inlineOption: string]: unknown;
    };

export interface NormalizedSpec {
  /** Canonical type name. */
  type: string;
  id: string;
  options: Record<string, unknown>;
}

const RESERVED = new Set(['type', 'transform', 'name', 'id', 'options']);

export function normalizeSpec(spec: TransformSpec): NormalizedSpec {
  if (typeof spec === 'string') {
    const type = resolveTransformType(spec);
    if (!type) throw new UnknownTransformError(spec, transformTypes());
    return { type, id: type, options: {} };
  }
  if (!isRecord(spec)) throw new TransformSpecError('A transform spec must be a name or a mapping');
  const rawType = spec.type ?? spec.transform ?? spec.name;
  if (typeof rawType !== 'string' || rawType.trim() === '') {
    throw new TransformSpecError("A transform spec needs a 'type'", { keys: Object.keys(spec) });
  }
  const type = resolveTransformType(rawType);
  if (!type) throw new UnknownTransformError(rawType, transformTypes());
  if (spec.id !== undefined && (typeof spec.id !== 'string' || spec.id === '')) {
    throw new TransformSpecError("A transform spec's 'id' must be a non-empty string", { type });
  }
  if (spec.options !== undefined && spec.options !== null && !isRecord(spec.options)) {
    throw new TransformSpecError("A transform spec's 'options' must be a mapping", { type });
  }
  const inline: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec)) if (!RESERVED.has(k)) inline[k] = v;
  return { type, id: spec.id ?? type, options: { ...inline, ...(spec.options ?? {}) } };
}
