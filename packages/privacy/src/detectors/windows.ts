/**
 * Running a regex we did not write (a custom detector, a `sanitize` extra pattern) over a long
 * string in bounded windows.
 *
 * The built-in patterns are written to take time linear in their input; a user's pattern may
 * not be (`(\w+\s?)+x`, `a.*b.*c`), and on a 1 MB string a quadratic pattern runs for minutes
 * while the whole server waits. So a string longer than {@link WINDOW_LIMIT} characters is not
 * given to such a regex whole: it is cut into owned stretches of {@link WINDOW_STEP}
 * characters, and the regex runs on each stretch plus {@link WINDOW_MARGIN} characters of
 * context on either side. A match counts in the window whose stretch holds its start, and the
 * next search starts where the previous match ended, as a plain global scan would.
 *
 * Results are those of a scan of the whole string for every match that, with whatever its
 * lookarounds read, fits within the margin (1,024 characters). A longer match that crosses a
 * window's edge may be reported cut short at the edge, or missed. What this bounds is the work:
 * a quadratic pattern does at most about WINDOW_LIMIT² steps per window, so its cost grows
 * linearly with the string (seconds per MB instead of minutes). It cannot help a pattern that
 * is exponential on a short input (`(a+)+$`); keep such patterns out of policies.
 */

/** Characters of a stretch each window owns. */
export const WINDOW_STEP = 4096;
/** Context read on each side of a stretch: matches up to this long are found exactly. */
export const WINDOW_MARGIN = 1024;
/** Strings up to this long are scanned whole. */
export const WINDOW_LIMIT = WINDOW_STEP + 2 * WINDOW_MARGIN;

/**
 * Calls `visit(match, offset)` for every match of the global regex `re` in `text`, in order;
 * `match.index` (and `match.indices`) are relative to `offset`. Stops when `visit` returns
 * false. `re.lastIndex` is left unspecified.
 */
export function forEachMatch(
  re: RegExp,
  text: string,
  visit: (match: RegExpExecArray, offset: number) => boolean | undefined,
): void {
  const len = text.length;
  if (len <= WINDOW_LIMIT) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      if (visit(m, 0) === false) return;
    }
    return;
  }
  // Where the next search starts, in `text`: past the end of the last match.
  let next = 0;
  for (let own = 0; own < len; own += WINDOW_STEP) {
    const ownEnd = Math.min(len, own + WINDOW_STEP);
    if (next >= ownEnd) continue;
    const from = Math.max(0, own - WINDOW_MARGIN);
    const slice = text.slice(from, Math.min(len, ownEnd + WINDOW_MARGIN));
    re.lastIndex = Math.max(next, own) - from;
    for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
      const start = m.index + from;
      // Starts in the next stretch: that window finds it again, with its own context.
      if (start >= ownEnd) break;
      next = start + m[0].length;
      if (m[0].length === 0) {
        re.lastIndex++;
        next++;
      }
      if (visit(m, from) === false) return;
    }
  }
}

/** True when the global regex `re` matches somewhere in `text` (windowed as above). */
export function testWindowed(re: RegExp, text: string): boolean {
  let hit = false;
  forEachMatch(re, text, () => {
    hit = true;
    return false;
  });
  return hit;
}
