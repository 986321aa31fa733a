/**
 * Lenient input coercion, guided by the published JSON Schema: clients (and models) often send
 * `"5"` for an integer or `"true"` for a boolean. Where the schema expects a number, integer or
 * boolean and the value is a string that spells one unambiguously, the string is converted before
 * validation. Anything else is left for the validator to report.
 */
import type { JsonObject, JsonValue } from '../json.js';

const NUMERIC = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 't', 'y']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', 'f', 'n']);

/** Published schemas do not change, so each node's type set is worked out once. */
const typesOf = new WeakMap<JsonObject, ReadonlySet<string>>();

function types(schema: JsonObject): ReadonlySet<string> {
  let known = typesOf.get(schema);
  if (!known) {
    known = collectTypes(schema);
    typesOf.set(schema, known);
  }
  return known;
}

function collectTypes(schema: JsonObject): Set<string> {
  const out = new Set<string>();
  const type = schema.type;
  if (typeof type === 'string') out.add(type);
  else if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') out.add(t);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      for (const branch of branches) {
        if (branch && typeof branch === 'object' && !Array.isArray(branch))
          for (const t of collectTypes(branch)) out.add(t);
      }
    }
  }
  return out;
}

function objectBranch(schema: JsonObject, key: 'properties' | 'items'): JsonObject | undefined {
  if (schema[key] !== undefined) return schema;
  for (const union of ['anyOf', 'oneOf'] as const) {
    const branches = schema[union];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      if (branch && typeof branch === 'object' && !Array.isArray(branch) && branch[key] !== undefined)
        return branch;
    }
  }
  return undefined;
}

export function coerceToSchema(value: unknown, schema: JsonObject | undefined): unknown {
  if (!schema) return value;
  const expected = types(schema);
  if (typeof value === 'string') {
    if (expected.has('string')) return value;
    if ((expected.has('integer') || expected.has('number')) && NUMERIC.test(value)) return Number(value);
    if (expected.has('boolean')) {
      const word = value.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
    }
    return value;
  }
  if (Array.isArray(value)) {
    const holder = objectBranch(schema, 'items');
    const items = holder?.items;
    if (!items || typeof items !== 'object' || Array.isArray(items)) return value;
    let changed = false;
    const out = value.map((item) => {
      const next = coerceToSchema(item, items);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (value !== null && typeof value === 'object') {
    const holder = objectBranch(schema, 'properties');
    const props = holder?.properties as Record<string, JsonValue> | undefined;
    if (!props) return value;
    let out: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const sub = props[key];
      if (!sub || typeof sub !== 'object' || Array.isArray(sub)) continue;
      const next = coerceToSchema(item, sub);
      if (next !== item) {
        out ??= { ...(value as Record<string, unknown>) };
        out[key] = next;
      }
    }
    return out ?? value;
  }
  return value;
}
