/** JSON values as they travel on the wire. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Convert a handler's return value into plain JSON: objects with `toJSON()` or `toDict()` are
 * converted through them, Maps become objects, Sets and other iterables arrays, Dates ISO
 * strings, bigints strings; `undefined` members are dropped.
 */
export function toJsonable(value: unknown, seen: WeakSet<object> = new WeakSet()): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return null;
  }
  if (value === null) return null;
  const obj = value as object;
  if (seen.has(obj)) throw new TypeError('Circular structure in result');
  seen.add(obj);
  try {
    if (Array.isArray(obj)) return obj.map((item) => toJsonable(item, seen));
    if (obj instanceof Date) return obj.toISOString();
    if (obj instanceof Map) {
      const out: JsonObject = {};
      for (const [k, v] of obj) if (v !== undefined) out[String(k)] = toJsonable(v, seen);
      return out;
    }
    if (obj instanceof Set) return [...obj].map((item) => toJsonable(item, seen));
    if (ArrayBuffer.isView(obj))
      return Buffer.from(obj.buffer, obj.byteOffset, obj.byteLength).toString('base64');
    const withDict = obj as { toDict?: () => unknown; toJSON?: () => unknown };
    if (!isPlainObject(obj)) {
      if (typeof withDict.toDict === 'function') return toJsonable(withDict.toDict(), seen);
      if (typeof withDict.toJSON === 'function') return toJsonable(withDict.toJSON(), seen);
    }
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = toJsonable(v, seen);
    return out;
  } finally {
    seen.delete(obj);
  }
}

/** JSON with object keys sorted at every depth: the canonical form for hashes and cache keys. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(toJsonable(value)));
}

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key] as JsonValue);
    return out;
  }
  return value;
}

/** Deep copy of a JSON-compatible value. */
export function cloneJson<T>(value: T): T {
  return structuredClone(value);
}
