/**
 * The length of `JSON.stringify(value, null, indent)` computed without building the string,
 * so the projection budget can measure large results cheaply.
 */

// Quotes, backslashes, control characters (below U+0020) and surrogates change length when escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes control characters, which changes the length
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringLength(s: string): number {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s).length : s.length + 2;
}

export function renderedLength(value: unknown, indent = 2): number {
  const walk = (v: unknown, depth: number): number => {
    switch (typeof v) {
      case 'string':
        return stringLength(v);
      case 'number':
        return Number.isFinite(v) ? String(v).length : 4;
      case 'boolean':
        return v ? 4 : 5;
      case 'object': {
        if (v === null) return 4;
        if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
          return JSON.stringify(v, null, indent)?.length ?? 0;
        }
        const inner = indent * (depth + 1);
        const outer = indent * depth;
        if (Array.isArray(v)) {
          if (v.length === 0) return 2;
          let n = 2;
          for (const item of v) {
            const w = item === undefined || typeof item === 'function' ? 4 : walk(item, depth + 1);
            n += inner + w;
          }
          // separators ",\n" between items, "\n" after "[" and before "]"
          return n + (v.length - 1) * (indent ? 2 : 1) + (indent ? 2 + outer : 0);
        }
        let count = 0;
        let n = 2;
        for (const k of Object.keys(v)) {
          const item = (v as Record<string, unknown>)[k];
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          n += inner + stringLength(k) + (indent ? 2 : 1) + walk(item, depth + 1);
          count++;
        }
        if (count === 0) return 2;
        return n + (count - 1) * (indent ? 2 : 1) + (indent ? 2 + outer : 0);
      }
      default:
        return 0;
    }
  };
  const top = typeof value === 'undefined' ? 0 : walk(value, 0);
  return top;
}
