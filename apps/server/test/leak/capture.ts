/**
 * Everything a client reads, flattened to strings with the place each came from: every string
 * value and every object key of a wire object, at a JSON path (`structuredContent.items[3].name`).
 */

export interface Seen {
  /** Which request produced it: `tool find_assets #12 {"fields":["name"]}`. */
  where: string;
  /** JSON path inside what the client received. */
  path: string;
  text: string;
  /** The text is an object key, not a value. */
  key: boolean;
}

export class Capture {
  readonly seen: Seen[] = [];

  /** Record every string and key of `value` (a wire object, an error, a log payload...). */
  add(where: string, root: string, value: unknown): void {
    const walk = (v: unknown, path: string) => {
      if (typeof v === 'string') {
        this.seen.push({ where, path, text: v, key: false });
      } else if (typeof v === 'number' || typeof v === 'bigint') {
        // Numbers reach the client as digits too (an account id read as a number).
        this.seen.push({ where, path, text: String(v), key: false });
      } else if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) walk(v[i], `${path}[${i}]`);
      } else if (v !== null && typeof v === 'object') {
        for (const [k, item] of Object.entries(v)) {
          const child = /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
          this.seen.push({ where, path: `${child} (key)`, text: k, key: true });
          walk(item, child);
        }
      }
    };
    walk(value, root);
  }
}

/** A short, stable rendering of arguments for messages. */
export function brief(args: unknown, max = 160): string {
  const text = JSON.stringify(args) ?? '';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
