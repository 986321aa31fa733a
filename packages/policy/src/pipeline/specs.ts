/**
 * Transform specs in one normal form: canonical type, id and options. The policy reasons about
 * types (reordering aliases, merging options, honouring hints) before anything is built.
 */
import { TransformSpecError } from '../errors.js';
import type { TransformSpecInput } from '../schema/config.js';

export interface NormalizedSpec {
  /** Canonical type name (`redact`, `sanitize`...). Unregistered names pass through lower-cased. */
  type: string;
  /** Defaults to the type. */
  id: string;
  options: Record<string, unknown>;
}

/** Type aliases of section 10.1, after lower-casing and turning hyphens into underscores. */
const ALIASES: Record<string, string> = {
  sanitise: 'sanitize',
  untrusted: 'sanitize',
  untrusted_text: 'sanitize',
  redaction: 'redact',
  redactor: 'redact',
  dlp: 'redact',
  projection: 'project',
  shape: 'project',
  annotation: 'annotate',
  annotations: 'annotate',
  annotator: 'annotate',
  substitution: 'substitute',
  aliases: 'alias',
  rename: 'rename_keys',
  templates: 'template',
  depseudonymise: 'depseudonymize',
  depseudonymizer: 'depseudonymize',
  secret_guard: 'guard_secrets',
  reject_secrets: 'guard_secrets',
};

export function canonicalType(name: string): string {
  const key = name.trim().toLowerCase().replaceAll('-', '_');
  return ALIASES[key] ?? key;
}

const SPEC_KEYS = new Set(['type', 'transform', 'name', 'id', 'options']);

export function normalizeSpec(spec: TransformSpecInput): NormalizedSpec {
  if (typeof spec === 'string') {
    const type = canonicalType(spec);
    return { type, id: type, options: {} };
  }
  const raw = spec.type ?? spec.transform ?? spec.name;
  if (typeof raw !== 'string' || raw === '') {
    throw new TransformSpecError("A transform mapping needs 'type'");
  }
  const type = canonicalType(raw);
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (!SPEC_KEYS.has(key)) options[key] = value;
  }
  Object.assign(options, spec.options ?? {});
  return { type, id: typeof spec.id === 'string' ? spec.id : type, options };
}

function isDict(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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

export { isDict };
