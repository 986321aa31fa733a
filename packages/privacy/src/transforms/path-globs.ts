/**
 * Dotted path globs for projection: segments separated by dots, `*` matches one segment,
 * `**` any number including none, and a segment with `*`, `?` or `[` is an fnmatch glob.
 * Matching is incremental (an NFA over segments), so the cost is linear in the result size.
 */
import { compileGlobs, isGlob } from '../util/glob.js';

type Seg = { kind: 'any' } | { kind: 'deep' } | { kind: 'lit'; text: string } | { kind: 'glob'; re: RegExp };

export class PathPattern {
  readonly segs: Seg[];

  constructor(readonly source: string) {
    this.segs = source.split('.').map((s): Seg => {
      if (s === '**') return { kind: 'deep' };
      if (s === '*') return { kind: 'any' };
      if (isGlob(s)) return { kind: 'glob', re: compileGlobs([s]) };
      return { kind: 'lit', text: s };
    });
  }

  /** A pattern `**.<key>`: matches a key of that name at any depth. */
  get anyDepthKey(): string | null {
    const [a, b] = this.segs;
    return this.segs.length === 2 && a?.kind === 'deep' && b?.kind === 'lit' ? b.text : null;
  }

  private matches(i: number, seg: string): boolean {
    const s = this.segs[i];
    if (!s) return false;
    if (s.kind === 'any') return true;
    if (s.kind === 'lit') return s.text === seg;
    if (s.kind === 'glob') return s.re.test(seg);
    return false;
  }

  /** States reachable from `i` without consuming a segment. */
  private closure(states: number[]): number[] {
    const out: number[] = [];
    const stack = [...states];
    while (stack.length) {
      const i = stack.pop()!;
      if (out.includes(i)) continue;
      out.push(i);
      if (this.segs[i]?.kind === 'deep') stack.push(i + 1);
    }
    return out;
  }

  start(): number[] {
    return this.closure([0]);
  }

  step(states: readonly number[], seg: string): number[] {
    const next: number[] = [];
    for (const i of states) {
      const s = this.segs[i];
      if (!s) continue;
      if (s.kind === 'deep') next.push(i);
      else if (this.matches(i, seg)) next.push(i + 1);
    }
    return next.length ? this.closure(next) : next;
  }

  complete(states: readonly number[]): boolean {
    return states.includes(this.segs.length);
  }
}
