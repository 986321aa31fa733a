/**
 * Running a set of detectors over one string. Matches are taken leftmost first; a match that
 * overlaps an earlier one is discarded, and on equal starts the detector listed first wins.
 *
 * Speed matters here (every string of a large result passes through): the hints of all
 * detectors are folded into one prefilter (hints.ts), so a string is read once to learn which
 * detectors could match it, however many detectors there are, and a string that contains no
 * hint at all costs that one pass plus the detectors that have no hints.
 */
import { HintIndex } from './hints.js';
import type { Detector, Span } from './types.js';
import { forEachMatch } from './windows.js';

/** A detector list compiled for scanning. Build once, reuse for every string. */
export class DetectorSet {
  readonly detectors: readonly Detector[];
  private readonly order = new Map<Detector, number>();
  private readonly hints: HintIndex;
  private readonly minLength: number;
  /** Shortest string a detector without hints would look at. */
  private readonly minUnhinted: number;
  /** Indices of the detectors without hints, which run on every string long enough. */
  private readonly unhinted: number[];

  constructor(detectors: readonly Detector[]) {
    this.detectors = [...detectors];
    this.detectors.forEach((d, i) => {
      this.order.set(d, i);
    });
    this.hints = new HintIndex(this.detectors.map((d) => d.hints));
    this.unhinted = this.detectors.flatMap((d, i) => (d.hints.length === 0 ? [i] : []));
    this.minLength = this.detectors.reduce((m, d) => Math.min(m, d.minLength), Number.POSITIVE_INFINITY);
    this.minUnhinted = this.detectors.reduce(
      (m, d) => (d.hints.length === 0 ? Math.min(m, d.minLength) : m),
      Number.POSITIVE_INFINITY,
    );
  }

  /**
   * False when no detector could report anything in `text` (too short, no hint present):
   * a cheap test to run before any cache lookup. The hint pass it makes is not repeated by a
   * `scan` of the same string that follows.
   */
  canMatch(text: string): boolean {
    const len = text.length;
    if (len < this.minLength) return false;
    if (len >= this.minUnhinted) return true;
    if (this.hints.mark(text) === 0) return false;
    // A hint as common as `.` says little: the detector must also fit in the string.
    const groups = this.hints.groups();
    for (let i = 0; i < this.hints.count(); i++)
      if (len >= this.detectors[groups[i]!]!.minLength) return true;
    return false;
  }

  /** The spans to act on, sorted by start, without overlaps. The empty result is shared: do not mutate. */
  scan(text: string): Span[] {
    if (text.length < this.minLength || this.detectors.length === 0) return NONE;
    // Only the detectors whose hints occur, and those without hints: with a few hundred
    // detectors, most strings meet none or a handful.
    const found = this.hints.mark(text) > 0 ? this.hints.groups() : NO_GROUPS;
    const foundCount = found === NO_GROUPS ? 0 : this.hints.count();
    // Allocated on the first span only: most strings match nothing.
    let raw: Span[] | null = null;
    const len = text.length;
    const unhinted = this.unhinted;
    let u = 0;
    let f = 0;
    while (u < unhinted.length || f < foundCount) {
      // Merge the two sorted lists, so detectors run in priority order.
      const di =
        f >= foundCount || (u < unhinted.length && unhinted[u]! < found[f]!) ? unhinted[u++]! : found[f++]!;
      const d = this.detectors[di]!;
      if (len >= d.minLength) raw = collect(text, d, raw);
    }
    if (raw === null) return NONE;
    if (raw.length === 1) return raw;
    raw.sort((a, b) => a.start - b.start || this.order.get(a.detector)! - this.order.get(b.detector)!);
    const out: Span[] = [];
    let end = -1;
    for (const s of raw) {
      if (s.start < end) continue;
      out.push(s);
      end = s.end;
    }
    return out;
  }
}

const NONE: Span[] = [];
const NO_GROUPS = new Int32Array(0);

/** Adds every validated span of one detector to `out` (created on demand) and returns it. */
function collect(text: string, d: Detector, into: Span[] | null): Span[] | null {
  let out = into;
  // A user's pattern may be superlinear: it sees long strings in bounded windows (windows.ts).
  if (!d.builtin) {
    forEachMatch(d.pattern, text, (m, offset) => {
      const span = toSpan(m, offset, d);
      if (span !== null) {
        out ??= [];
        out.push(span);
      }
      return undefined;
    });
    return out;
  }
  // Built-in patterns are linear in their input, and some matches (a private key block) are
  // long: they run on the whole string.
  const re = d.pattern;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) re.lastIndex++;
    const span = toSpan(m, 0, d);
    if (span !== null) {
      out ??= [];
      out.push(span);
    }
  }
  return out;
}

/** The validated span of one match (`offset` added to its positions), or null. */
function toSpan(m: RegExpExecArray, offset: number, d: Detector): Span | null {
  const g = d.group;
  let start = m.index;
  let value: string | undefined = m[0];
  if (typeof g === 'number') {
    if (g !== 0) {
      value = m[g];
      if (value !== undefined) start = groupStart(m, g, value);
    }
  } else {
    value = undefined;
    for (let i = 0; i < g.length && value === undefined; i++) {
      value = m[g[i]!];
      if (value !== undefined) start = groupStart(m, g[i]!, value);
    }
  }
  if (value === undefined || value.length === 0) return null;
  const entity = d.validate ? d.validate(value, m.input, start) : d.entity;
  if (entity === null) return null;
  return { start: start + offset, end: start + offset + value.length, entity, detector: d };
}

/**
 * Where group `g` (text `value`) starts. Custom group detectors compile with the `d` flag, so
 * the exact index is known; a built-in group is the last occurrence of its text in the match
 * (builtin.ts).
 */
function groupStart(m: RegExpExecArray, g: number, value: string): number {
  const at = m.indices?.[g];
  return at ? at[0] : m.index + m[0].lastIndexOf(value);
}

const sets = new WeakMap<readonly Detector[], DetectorSet>();

/**
 * The spans `detectors` (in priority order) report in `text`, sorted by start, without
 * overlaps. The compiled set is cached per array.
 */
export function detectSpans(text: string, detectors: readonly Detector[]): Span[] {
  let set = sets.get(detectors);
  if (!set) {
    set = new DetectorSet(detectors);
    sets.set(detectors, set);
  }
  return set.scan(text);
}
