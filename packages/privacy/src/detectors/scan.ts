/**
 * Running a set of detectors over one string. Matches are taken leftmost first; a match that
 * overlaps an earlier one is discarded, and on equal starts the detector listed first wins.
 */
import type { Detector, Span } from './types.js';

function hintsPass(d: Detector, lower: string): boolean {
  const hints = d.hints;
  if (hints.length === 0) return true;
  for (let i = 0; i < hints.length; i++) if (lower.includes(hints[i]!)) return true;
  return false;
}

/** Every raw, validated span of every detector, in detector order. */
function collect(text: string, detectors: readonly Detector[], out: Span[]): void {
  let lower: string | undefined;
  const len = text.length;
  for (let di = 0; di < detectors.length; di++) {
    const d = detectors[di]!;
    if (len < d.minLength) continue;
    if (d.hints.length > 0) {
      if (lower === undefined) lower = text.toLowerCase();
      if (!hintsPass(d, lower)) continue;
    }
    const re = d.pattern;
    re.lastIndex = 0;
    let m: RegExpExecArray | null = re.exec(text);
    while (m !== null) {
      if (m[0].length === 0) re.lastIndex++;
      let start = m.index;
      let value = m[0];
      const g = d.group;
      if (g !== 0) {
        const groups = typeof g === 'number' ? [g] : g;
        let found = false;
        for (const gi of groups) {
          const gv = m[gi];
          if (gv !== undefined) {
            // Group detectors compile with the `d` flag, so the exact sub-span is known.
            const at = m.indices?.[gi];
            start = at ? at[0] : m.index + m[0].lastIndexOf(gv);
            value = gv;
            found = true;
            break;
          }
        }
        if (!found) {
          m = re.exec(text);
          continue;
        }
      }
      const entity = d.validate ? d.validate(value) : d.entity;
      if (entity !== null && value.length > 0)
        out.push({ start, end: start + value.length, entity, detector: d });
      m = re.exec(text);
    }
  }
}

/**
 * The spans to act on, sorted by start, without overlaps. `detectors` must be in priority order.
 * Returns an empty array (shared, do not mutate) when nothing matched.
 */
export function detectSpans(text: string, detectors: readonly Detector[]): Span[] {
  const raw: Span[] = [];
  collect(text, detectors, raw);
  if (raw.length <= 1) return raw;
  const order = new Map<Detector, number>();
  for (let i = 0; i < detectors.length; i++) order.set(detectors[i]!, i);
  raw.sort((a, b) => a.start - b.start || order.get(a.detector)! - order.get(b.detector)!);
  const out: Span[] = [];
  let end = -1;
  for (const s of raw) {
    if (s.start < end) continue;
    out.push(s);
    end = s.end;
  }
  return out;
}
