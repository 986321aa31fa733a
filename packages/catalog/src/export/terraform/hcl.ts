import { HclReference, type HclValue } from './mapping.js';

/**
 * A small writer for the native HCL syntax Terraform reads. Values come from collected data
 * (names, tags, descriptions), so every string is escaped, including the `${` and `%{`
 * template openers that would otherwise be evaluated, and map keys are always quoted.
 */

export function hclString(value: string): string {
  let out = '"';
  for (const ch of value) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case '"':
        out += '\\"';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      default: {
        const code = ch.codePointAt(0) ?? 0;
        out += code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : ch;
      }
    }
  }
  out += '"';
  // Template sequences are literal in the data: `$${` and `%%{` are HCL's escapes for them.
  // (Replacement functions: in a replacement string `$$` would itself mean one `$`.)
  return out.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

export function hclValue(value: HclValue, indent: string): string {
  if (typeof value === 'string') return hclString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : hclString(String(value));
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => hclValue(v, indent)).join(', ')}]`;
  if (value instanceof HclReference) return value.ref;
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const inner = `${indent}  `;
  const lines = entries.map(([k, v]) => `${inner}${hclString(k)} = ${hclString(String(v))}`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** `name = value` lines of a block body. Argument names come from the exporter, never from data. */
export function hclBody(args: Readonly<Record<string, HclValue>>, indent = '  '): string[] {
  return Object.entries(args).map(([name, value]) => `${indent}${name} = ${hclValue(value, indent)}`);
}

/** A block: `type "label" "label" { ... }`. */
export function hclBlock(type: string, labels: readonly string[], body: readonly string[]): string {
  const head = [type, ...labels.map(hclString)].join(' ');
  return body.length === 0 ? `${head} {}\n` : `${head} {\n${body.join('\n')}\n}\n`;
}

/**
 * A resource name made from an asset name: letters, digits and `_` only (Terraform also allows
 * `-`, but `a-b` in an expression reads like a subtraction to people), not starting with a
 * digit; `taken` keeps them unique within the configuration.
 */
export function resourceLabel(name: string, taken: Set<string>): string {
  let base = name
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  if (!/^[A-Za-z_]/.test(base)) base = `r_${base}`;
  if (base === 'r_') base = 'resource';
  let label = base;
  for (let n = 2; taken.has(label); n++) label = `${base}_${n}`;
  taken.add(label);
  return label;
}

/** A word for a POSIX shell: single-quoted, with embedded quotes closed and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
