/**
 * fnmatch-style globs (`*`, `?`, `[abc]`, `[!abc]`) compiled to anchored regular expressions.
 */

const SPECIAL = /[\\^$.|+(){}]/;

/** The regex source of one glob, without anchors. */
export function globSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else out += SPECIAL.test(c) || c === ']' ? `\\${c}` : c;
  }
  return out;
}

/** One regex matching any of the globs (whole string, dot matches newline). */
export function compileGlobs(globs: readonly string[], flags = 's'): RegExp {
  if (globs.length === 0) return /(?!)/;
  return new RegExp(`^(?:${globs.map(globSource).join('|')})$`, flags);
}

/** True when the pattern uses glob syntax. */
export function isGlob(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}
