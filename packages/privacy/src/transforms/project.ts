/**
 * `project`: keeps results small and on topic: include/exclude paths, key allowlists, depth,
 * list and string limits, and a size budget measured on the rendered JSON (section 11.7).
 */
import type { ProjectionReport, Transform, TransformContext } from '../types.js';
import { compileGlobs } from '../util/glob.js';
import { isRecord, OptionReader } from '../util/options.js';
import { jsonStringLength, measure } from '../util/render.js';
import { PathPattern } from './path-globs.js';
import { capText } from './sanitize.js';

export const PROJECT_OPTIONS = [
  'include',
  'exclude',
  'allow_keys',
  'allow_keys_by_sensitivity',
  'max_depth',
  'max_list',
  'max_string',
  'drop_nulls',
  'drop_empty',
  'max_chars',
  'list_marker',
  'min_list',
  'min_string',
] as const;

const BUDGET_PASSES = 24;

interface Limits {
  list: number | null;
  str: number | null;
  depth: number | null;
}

interface Stats {
  excluded: number;
  keys_dropped: number;
  lists_truncated: number;
  strings_truncated: number;
  depth_limited: number;
}

type PatternStates = number[][] | null;

/**
 * One pass over a value: its limits and what it did, and the measure of the result (its length
 * as `JSON.stringify(result, null, 2)`, longest list and string, deepest container), taken while
 * the pass builds it. Measuring in the same walk matters on bulk results: a separate measuring
 * walk over a 34 MB result cost as much as the projection itself.
 */
interface PassState {
  limits: Limits;
  allow: RegExp | null;
  stats: Stats;
  /** Rendered length of the value the last `visit` returned (REMOVE leaves it unset). */
  len: number;
  list: number;
  str: number;
  depth: number;
}

/** Indent of the rendering the budget measures (the reference measures `indent=2` JSON). */
const INDENT = 2;

const REMOVE = Symbol('remove');

export class Projection implements Transform {
  readonly name = 'project';
  private readonly include: PathPattern[];
  private readonly excludeKeys: Set<string>;
  private readonly exclude: PathPattern[];
  private readonly allowKeys: RegExp | null;
  private readonly allowBySensitivity: Map<string, RegExp>;
  private readonly limits: Limits;
  private readonly dropNulls: boolean;
  private readonly dropEmpty: boolean;
  private readonly maxChars: number | null;
  private readonly listMarker: boolean;
  private readonly minList: number;
  private readonly minString: number;

  constructor(
    options: Record<string, unknown> = {},
    readonly id = 'project',
  ) {
    const o: OptionReader = new OptionReader('project', options, PROJECT_OPTIONS);
    this.include = o.strList('include', []).map((p) => new PathPattern(p));
    const exclude = o.strList('exclude', []).map((p) => new PathPattern(p));
    this.excludeKeys = new Set(exclude.map((p) => p.anyDepthKey).filter((k): k is string => k !== null));
    this.exclude = exclude.filter((p) => p.anyDepthKey === null);
    const allow = o.raw('allow_keys');
    this.allowKeys = allow === undefined || allow === null ? null : compileGlobs(o.strList('allow_keys', []));
    this.allowBySensitivity = new Map();
    for (const [level, globs] of Object.entries(o.record('allow_keys_by_sensitivity'))) {
      if (!Array.isArray(globs) || globs.some((g) => typeof g !== 'string')) {
        o.fail('allow_keys_by_sensitivity', 'a mapping of sensitivity to key globs');
      }
      this.allowBySensitivity.set(level, compileGlobs(globs as string[]));
    }
    this.limits = {
      list: o.optNum('max_list', null, 0),
      str: o.optNum('max_string', null, 0),
      depth: o.optNum('max_depth', null, 0),
    };
    this.dropNulls = o.bool('drop_nulls', false);
    this.dropEmpty = o.bool('drop_empty', false);
    this.maxChars = o.optNum('max_chars', null, 1);
    this.listMarker = o.bool('list_marker', true);
    this.minList = o.num('min_list', 1, 0);
    this.minString = Math.max(8, o.num('min_string', 64, 0));
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    const allow =
      (ctx.sensitivity !== undefined ? this.allowBySensitivity.get(ctx.sensitivity) : undefined) ??
      this.allowKeys;
    let st = this.pass(value, this.limits, allow);
    let out = st.out;
    const report: ProjectionReport = {};
    if (this.maxChars !== null && st.state.len > this.maxChars) {
      const projected = st.state;
      // Unchanged subtrees are shared, so an untouched result is its own original.
      const originalChars = out === value ? projected.len : measure(value, INDENT).chars;
      let size = projected.len;
      const limits: Limits = {
        list: this.limits.list ?? projected.list,
        str: this.limits.str ?? projected.str,
        depth: this.limits.depth ?? projected.depth,
      };
      for (let i = 0; i < BUDGET_PASSES && size > this.maxChars; i++) {
        const ratio = this.maxChars / size;
        const listAtFloor = (limits.list ?? 0) <= this.minList;
        if (!listAtFloor && limits.list !== null) {
          limits.list = Math.max(this.minList, Math.min(limits.list - 1, Math.floor(limits.list * ratio)));
        }
        const strAtFloor = (limits.str ?? 0) <= this.minString;
        if (limits.str !== null && !strAtFloor && (size > 4 * this.maxChars || listAtFloor)) {
          limits.str = Math.max(this.minString, Math.floor(limits.str / 4));
        }
        if (listAtFloor && strAtFloor && limits.depth !== null && limits.depth > 0) limits.depth--;
        // Budget passes start from the value as originally projected, with tighter limits.
        st = this.pass(value, limits, allow);
        out = st.out;
        size = st.state.len;
        if (listAtFloor && strAtFloor && limits.depth === 0) break;
      }
      if (size > this.maxChars) ctx.report.truncated = true;
      report.budget = {
        max_chars: this.maxChars,
        original_chars: originalChars,
        final_chars: size,
        max_list: limits.list,
        max_string: limits.str,
      };
    }
    for (const [k, n] of Object.entries(st.state.stats)) if (n) (report as Record<string, number>)[k] = n;
    if (Object.keys(report).length) {
      ctx.report.projection = { ...(ctx.report.projection ?? {}), ...report };
    }
    return out;
  }

  private emptyStats(): Stats {
    return { excluded: 0, keys_dropped: 0, lists_truncated: 0, strings_truncated: 0, depth_limited: 0 };
  }

  private pass(value: unknown, limits: Limits, allow: RegExp | null): { out: unknown; state: PassState } {
    const state: PassState = { limits, allow, stats: this.emptyStats(), len: 0, list: 0, str: 0, depth: 0 };
    const inc: PatternStates = this.include.length ? this.include.map((p) => p.start()) : null;
    const exc: number[][] = this.exclude.map((p) => p.start());
    const r = this.visit(value, 0, inc, exc, state);
    if (r === REMOVE) {
      const empty = isRecord(value) ? {} : Array.isArray(value) ? [] : null;
      state.len = empty === null ? 4 : 2;
      return { out: empty, state };
    }
    // A bare undefined renders as nothing at all.
    if (r === undefined) state.len = 0;
    return { out: r, state };
  }

  private stepStates(patterns: PathPattern[], states: number[][], seg: string): number[][] {
    return states.map((s, i) => (s.length ? patterns[i]!.step(s, seg) : s));
  }

  /**
   * Projects `v` (at `depth`, the root being 0) and leaves the rendered length of the result in
   * `st.len`; returns REMOVE when the value goes.
   */
  private visit(v: unknown, depth: number, inc: PatternStates, exc: number[][], st: PassState): unknown {
    const limits = st.limits;
    if (typeof v === 'string') {
      if (inc !== null) return REMOVE;
      let r = v;
      if (limits.str !== null && v.length > limits.str) {
        st.stats.strings_truncated++;
        r = capText(v, limits.str);
      }
      if (r.length > st.str) st.str = r.length;
      st.len = jsonStringLength(r);
      return r;
    }
    if (typeof v !== 'object' || v === null) {
      if (inc !== null) return REMOVE;
      st.len = scalarLength(v);
      return v;
    }
    const isList = Array.isArray(v);
    if (limits.depth !== null && depth > limits.depth && inc === null) {
      const size = isList ? v.length : Object.keys(v).length;
      // An empty container says as much as its placeholder would.
      if (size > 0) {
        st.stats.depth_limited++;
        const placeholder = isList ? `<list: ${size} items>` : `<dict: ${size} keys>`;
        if (placeholder.length > st.str) st.str = placeholder.length;
        st.len = jsonStringLength(placeholder);
        return placeholder;
      }
    }
    const inner = INDENT * (depth + 1);
    let n = 2;
    let count = 0;
    let result: unknown;
    if (isList) {
      const list = v as unknown[];
      const limit = limits.list !== null && list.length > limits.list ? limits.list : list.length;
      let out: unknown[] | null = limit < list.length ? [] : null;
      for (let i = 0; i < limit; i++) {
        const item = list[i];
        const r = this.child(item, String(i), depth, inc, exc, st);
        if (r !== item && out === null) out = list.slice(0, i);
        if (r === REMOVE) continue;
        if (out !== null) out.push(r);
        // JSON renders a list's undefined, function and symbol items as null.
        n += inner + (r === undefined || typeof r === 'function' || typeof r === 'symbol' ? 4 : st.len);
        count++;
      }
      if (limit < list.length) {
        st.stats.lists_truncated++;
        if (this.listMarker) {
          const marker = `… ${list.length - limit} more items`;
          out!.push(marker);
          n += inner + jsonStringLength(marker);
          count++;
        }
      }
      if (inc !== null && out !== null && out.length === 0) return REMOVE;
      result = out ?? list;
      if (count > st.list) st.list = count;
    } else {
      const obj = v as Record<string, unknown>;
      const keys = Object.keys(obj);
      let out: Record<string, unknown> | null = null;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        const item = obj[k];
        let r: unknown;
        if (st.allow !== null && !st.allow.test(k)) {
          st.stats.keys_dropped++;
          r = REMOVE;
        } else r = this.child(item, k, depth, inc, exc, st);
        if (r !== item && out === null) {
          out = {};
          for (let j = 0; j < i; j++) out[keys[j]!] = obj[keys[j]!];
        }
        if (r === REMOVE) continue;
        if (out !== null) out[k] = r;
        // JSON leaves out a dict's undefined, function and symbol values.
        if (r === undefined || typeof r === 'function' || typeof r === 'symbol') continue;
        n += inner + jsonStringLength(k) + 2 + st.len;
        count++;
      }
      if (inc !== null && out !== null && Object.keys(out).length === 0) return REMOVE;
      result = out ?? obj;
    }
    if (typeof (result as { toJSON?: unknown }).toJSON === 'function') {
      // A value that renders itself (a Date) is measured as it renders.
      st.len = JSON.stringify(result, null, INDENT)?.length ?? 0;
      return result;
    }
    if (depth > st.depth) st.depth = depth;
    st.len = count === 0 ? 2 : n + (count - 1) * 2 + 2 + INDENT * depth;
    return result;
  }

  /** One item of a container: exclusions and includes stepped by its key, then its visit. */
  private child(
    item: unknown,
    seg: string,
    depth: number,
    inc: PatternStates,
    exc: number[][],
    st: PassState,
  ): unknown {
    if (this.excludeKeys.has(seg)) {
      st.stats.excluded++;
      return REMOVE;
    }
    let childExc = exc;
    if (exc.length) {
      childExc = this.stepStates(this.exclude, exc, seg);
      if (childExc.some((s, i) => this.exclude[i]!.complete(s))) {
        st.stats.excluded++;
        return REMOVE;
      }
    }
    let childInc = inc;
    if (inc !== null) {
      childInc = this.stepStates(this.include, inc, seg);
      // A complete include keeps the whole subtree; no live state drops it.
      if (childInc.some((s, i) => this.include[i]!.complete(s))) childInc = null;
      else if (childInc.every((s) => s.length === 0)) return REMOVE;
    }
    const r = this.visit(item, depth + 1, childInc, childExc, st);
    if (r === REMOVE) return r;
    if (this.dropNulls && r === null) return REMOVE;
    if (this.dropEmpty && isEmpty(r)) return REMOVE;
    return r;
  }
}

/** Rendered length of a non-container, non-string value. */
function scalarLength(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? String(v).length : 4;
    case 'boolean':
      return v ? 4 : 5;
    case 'object':
      return 4;
    default:
      return 0;
  }
}

function isEmpty(v: unknown): boolean {
  if (v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isRecord(v) && Object.keys(v).length === 0;
}
