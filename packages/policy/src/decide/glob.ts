/**
 * fnmatch-style globs (section 6.7): `*` matches any run of characters (`/` and `:` included),
 * `?` one character, `[abc]` and `[!abc]` a set. Matching is case-sensitive and anchored. A
 * pattern starting with `!` is a negation: a list matches when some positive pattern matches
 * and no negation does, so a list of negations alone matches nothing.
 */

function translate(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern.charAt(i++);
    if (ch === '*') out += '[\\s\\S]*';
    else if (ch === '?') out += '[\\s\\S]';
    else if (ch === '[') {
      let j = i;
      if (pattern.charAt(j) === '!') j++;
      if (pattern.charAt(j) === ']') j++;
      while (j < pattern.length && pattern.charAt(j) !== ']') j++;
      if (j >= pattern.length) {
        out += '\\[';
      } else {
        let body = pattern.slice(i, j).replaceAll('\\', '\\\\');
        i = j + 1;
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        else if (body.startsWith('^')) body = `\\${body}`;
        out += `[${body}]`;
      }
    } else out += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

function compile(patterns: readonly string[]): RegExp | undefined {
  if (patterns.length === 0) return undefined;
  return new RegExp(`^(?:${patterns.map(translate).join('|')})$`);
}

/** A compiled list of globs, one regular expression for the positives and one for the negations. */
export class GlobList {
  readonly patterns: readonly string[];
  private readonly positive: RegExp | undefined;
  private readonly negative: RegExp | undefined;

  constructor(patterns: readonly string[]) {
    this.patterns = [...patterns];
    this.positive = compile(patterns.filter((p) => !p.startsWith('!')));
    this.negative = compile(patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1)));
  }

  get isEmpty(): boolean {
    return this.patterns.length === 0;
  }

  matches(value: string): boolean {
    if (!this.positive?.test(value)) return false;
    return !this.negative?.test(value);
  }
}
