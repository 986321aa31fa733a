/**
 * The linear pre-scan `sparql_query` runs before parsing: string literals, comments and IRIs are
 * blanked, then the first keyword after the `PREFIX` / `BASE` declarations decides whether the
 * text is an update. Each character is looked at a bounded number of times, so no input can make
 * the scan slow; anything the scan lets through is parsed properly afterwards.
 */

const UPDATE_KEYWORDS = new Set([
  'INSERT',
  'DELETE',
  'LOAD',
  'CLEAR',
  'DROP',
  'CREATE',
  'ADD',
  'MOVE',
  'COPY',
  'WITH',
]);

/** Characters an IRIREF may not hold between `<` and `>` (SPARQL 1.1 grammar, [139]). */
function iriChar(code: number): boolean {
  return (
    code > 0x20 &&
    code !== 0x3c &&
    code !== 0x3e &&
    code !== 0x22 &&
    code !== 0x7b &&
    code !== 0x7d &&
    code !== 0x7c &&
    code !== 0x5e &&
    code !== 0x60 &&
    code !== 0x5c
  );
}

/**
 * The query with every string literal (all four quote forms), comment and IRI replaced by spaces
 * of the same length. A `<` that does not open an IRI (a comparison) is kept.
 */
export function blankLiteralsAndComments(query: string): string {
  const out: string[] = [];
  const n = query.length;
  let i = 0;
  const blank = (from: number, to: number) => {
    out.push(' '.repeat(to - from));
  };
  while (i < n) {
    const c = query[i]!;
    if (c === '#') {
      let j = i;
      while (j < n && query[j] !== '\n' && query[j] !== '\r') j++;
      blank(i, j);
      i = j;
    } else if (c === '"' || c === "'") {
      const long = query.startsWith(c.repeat(3), i);
      const close = long ? c.repeat(3) : c;
      let j = i + close.length;
      while (j < n) {
        if (query[j] === '\\') {
          j += 2;
          continue;
        }
        if (!long && (query[j] === '\n' || query[j] === '\r')) break;
        if (query.startsWith(close, j)) {
          j += close.length;
          break;
        }
        j++;
      }
      j = Math.min(j, n);
      blank(i, j);
      i = j;
    } else if (c === '<') {
      // An IRI runs to the next `>` over IRI characters only; the scan stops at the first other
      // character (`<` among them), so no position is scanned more than twice.
      let j = i + 1;
      while (j < n && iriChar(query.charCodeAt(j))) j++;
      if (j < n && query[j] === '>') {
        blank(i, j + 1);
        i = j + 1;
      } else {
        out.push(c);
        i++;
      }
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join('');
}

const WORD = /[A-Za-z]+/y;
const SPACE = /\s*/y;
const PREFIXED_NAME = /[A-Za-z][\w.-]*:|:/y;

/** The first keyword of the query after its prologue (upper case), or '' when there is none. */
export function firstKeyword(blanked: string): string {
  let i = 0;
  const skipSpace = () => {
    SPACE.lastIndex = i;
    SPACE.exec(blanked);
    i = SPACE.lastIndex;
  };
  for (;;) {
    skipSpace();
    WORD.lastIndex = i;
    const m = WORD.exec(blanked);
    if (!m) return '';
    const word = m[0].toUpperCase();
    if (word !== 'PREFIX' && word !== 'BASE') return word;
    i = WORD.lastIndex;
    skipSpace();
    if (word === 'PREFIX') {
      PREFIXED_NAME.lastIndex = i;
      if (PREFIXED_NAME.exec(blanked)) i = PREFIXED_NAME.lastIndex;
      skipSpace();
    }
    // The IRI itself was blanked; what follows is the next declaration or the query form.
  }
}

/** Whether the query text is a SPARQL update, by the pre-scan. */
export function looksLikeUpdate(query: string): boolean {
  return UPDATE_KEYWORDS.has(firstKeyword(blankLiteralsAndComments(query)));
}
