/**
 * Close-match scoring for "did you mean" suggestions: the Ratcliff/Obershelp ratio
 * (2 * matched characters / total characters), with the same candidate order as Python's
 * `difflib.get_close_matches` so suggestions match the reference's examples.
 */

function longestMatch(
  a: string,
  b2j: Map<string, number[]>,
  alo: number,
  ahi: number,
  blo: number,
  bhi: number,
): [number, number, number] {
  let bestI = alo;
  let bestJ = blo;
  let bestSize = 0;
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i += 1) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i] ?? '') ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestSize) {
        bestI = i - k + 1;
        bestJ = j - k + 1;
        bestSize = k;
      }
    }
    j2len = next;
  }
  return [bestI, bestJ, bestSize];
}

/** Number of characters in the matching blocks of `a` against `b`. */
function matchedChars(a: string, b: string): number {
  const b2j = new Map<string, number[]>();
  for (let j = 0; j < b.length; j += 1) {
    const ch = b[j] ?? '';
    const list = b2j.get(ch);
    if (list) list.push(j);
    else b2j.set(ch, [j]);
  }
  let total = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const [i, j, k] = longestMatch(a, b2j, alo, ahi, blo, bhi);
    if (k === 0) continue;
    total += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return total;
}

/** Similarity of two strings, 0 to 1. */
export function similarity(a: string, b: string): number {
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * matchedChars(a, b)) / total;
}

/** Upper bound of `similarity` from character counts alone (cheap pre-filter). */
function quickRatio(a: string, b: string): number {
  const counts = new Map<string, number>();
  for (const ch of b) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of a) {
    const n = counts.get(ch) ?? 0;
    if (n > 0) {
      matches += 1;
      counts.set(ch, n - 1);
    }
  }
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * matches) / total;
}

/**
 * Up to `n` candidates at least `cutoff` similar to `word`, best first; equal scores put the
 * lexically larger candidate first (difflib's order).
 */
export function closeMatches(word: string, candidates: Iterable<string>, n = 3, cutoff = 0.6): string[] {
  const scored: [number, string][] = [];
  for (const c of candidates) {
    const total = c.length + word.length;
    if (total > 0 && (2 * Math.min(c.length, word.length)) / total < cutoff) continue;
    if (quickRatio(c, word) < cutoff) continue;
    const score = similarity(c, word);
    if (score >= cutoff) scored.push([score, c]);
  }
  scored.sort((x, y) => y[0] - x[0] || (y[1] < x[1] ? -1 : y[1] > x[1] ? 1 : 0));
  return scored.slice(0, n).map(([, c]) => c);
}
