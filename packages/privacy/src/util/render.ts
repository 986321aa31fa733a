/**
 * The length of `JSON.stringify(value, null, indent)` computed without building the string,
 * so the projection budget can measure large results cheaply.
 */

// Quotes, backslashes, control characters (below U+0020) and surrogates change length when escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes control characters, which changes the length
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Length of `JSON.stringify(s)`. */
export function jsonStringLength(s: string): number {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s).length : s.length + 2;
}

export function renderedLength(value: unknown, indent = 2): number {
  return measure(value, indent).chars;
}

/** Rendered length plus the shape the projection budget starts from, in one walk. */
export interface Measure {
  chars: number;
  /** Longest list. */
  list: number;
  /** Longest string. */
  str: number;
  /** Deepest container nesting (the root is 0). */
  depth: number;
}

export function measure(value: unknown, indent = 2): Measure {
  const m: Measure = { chars: 0, list: 0, str: 0, depth: 0 };
  const walk = (v: unknown, depth: number): number => {
    switch (typeof v) {
      case 'string':
        if (v.length > m.str) m.str = v.length;
        return jsonStringLength(v);
      case 'number':
        return Number.isFinite(v) ? String(v).length : 4;
      case 'boolean':
        return v ? 4 : 5;
      case 'object': {
        if (v === null) return 4;
        if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
          return JSON.stringify(v, null, indent)?.length ?? 0;
        }
        if (depth > m.depth) m.depth = depth;
        const inner = indent * (depth + 1);
        const outer = indent * depth;
        if (Array.isArray(v)) {
          if (v.length > m.list) m.list = v.length;
          if (v.length === 0) return 2;
          let n = 2;
          for (const item of v) {
            n += inner + (item === undefined || typeof item === 'function' ? 4 : walk(item, depth + 1));
          }
          return n + (v.length - 1) * (indent ? 2 : 1) + (indent ? 2 + outer : 0);
        }
        let count = 0;
        let n = 2;
        for (const k of Object.keys(v)) {
          const item = (v as Record<string, unknown>)[k];
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          n += inner + jsonStringLength(k) + (indent ? 2 : 1) + walk(item, depth + 1);
          count++;
        }
        if (count === 0) return 2;
        return n + (count - 1) * (indent ? 2 : 1) + (indent ? 2 + outer : 0);
      }
      default:
        return 0;
    }
  };
  m.chars = value === undefined ? 0 : walk(value, 0);
  return m;
}
