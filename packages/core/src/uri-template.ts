/**
 * URI templates as the catalog uses them: `{var}` is one path segment, `{+var}` (and the legacy
 * `{var*}`) is anything, slashes included, for ARNs and Azure resource ids.
 */

interface Part {
  literal?: string;
  variable?: string;
  reserved?: boolean;
}

const EXPRESSION = /\{(\+?)([A-Za-z0-9_]+)(\*?)\}/g;
/** Characters `{+var}` expansion leaves as they are (RFC 6570 reserved set, minus `?#[]`). */
const RESERVED_SAFE = /[/:@!$&'()*+,;=]/;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  private readonly parts: readonly Part[];
  private readonly regex: RegExp;

  constructor(template: string) {
    this.template = template;
    const parts: Part[] = [];
    let pattern = '^';
    let last = 0;
    for (const match of template.matchAll(EXPRESSION)) {
      const literal = template.slice(last, match.index);
      if (literal) {
        parts.push({ literal });
        pattern += escapeRegex(literal);
      }
      const reserved = match[1] === '+' || match[3] === '*';
      parts.push({ variable: match[2]!, reserved });
      pattern += reserved ? '(.+)' : '([^/?]+)';
      last = match.index + match[0].length;
    }
    const tail = template.slice(last);
    if (tail) {
      parts.push({ literal: tail });
      pattern += escapeRegex(tail);
    }
    this.parts = parts;
    this.variables = parts.flatMap((p) => (p.variable ? [p.variable] : []));
    this.regex = new RegExp(`${pattern}$`);
  }

  /** The variables of a matching URI, URL-decoded, or `undefined` when it does not match. */
  match(uri: string): Record<string, string> | undefined {
    const m = this.regex.exec(uri);
    if (!m) return undefined;
    const out: Record<string, string> = {};
    this.variables.forEach((name, i) => {
      const raw = m[i + 1]!;
      try {
        out[name] = decodeURIComponent(raw);
      } catch {
        out[name] = raw;
      }
    });
    return out;
  }

  /** Build a URI: `{var}` values are fully percent-encoded, `{+var}` values keep reserved characters. */
  expand(values: Record<string, string | number>): string {
    let out = '';
    for (const part of this.parts) {
      if (part.literal !== undefined) {
        out += part.literal;
        continue;
      }
      const value = String(values[part.variable!] ?? '');
      out += part.reserved ? encodeReserved(value) : encodeURIComponent(value);
    }
    return out;
  }
}

function encodeReserved(value: string): string {
  let out = '';
  for (const char of value) out += RESERVED_SAFE.test(char) ? char : encodeURIComponent(char);
  return out;
}
