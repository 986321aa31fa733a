/**
 * `project`: keeps results small and on topic: include/exclude paths, key allowlists, depth,
 * list and string limits, and a size budget measured on the rendered JSON (section 11.7).
 */
import type { ProjectionReport, Transform, TransformContext } from '../types.js';
import { compileGlobs } from '../util/glob.js';
import { isRecord, OptionReader } from '../util/options.js';
import { measure, renderedLength } from '../util/render.js';
import { PathPattern } from './pathGlobs.js';
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
    let stats = this.emptyStats();
    let out = this.pass(value, this.limits, allow, stats);
    const report: ProjectionReport = {};
    if (this.maxChars !== null) {
      const original = measure(value);
      // Unchanged subtrees are shared, so an untouched result need not be measured again.
      const projected = out === value ? original : measure(out);
      let size = projected.chars;
      if (size > this.maxChars) {
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
          stats = this.emptyStats();
          // Budget passes start from the value as originally projected, with tighter limits.
          out = this.pass(value, limits, allow, stats);
          size = renderedLength(out);
          if (listAtFloor && strAtFloor && limits.depth === 0) break;
        }
        if (size > this.maxChars) ctx.report.truncated = true;
        report.budget = {
          max_chars: this.maxChars,
          original_chars: original.chars,
          final_chars: size,
          max_list: limits.list,
          max_string: limits.str,
        };
      }
    }
    for (const [k, n] of Object.entries(stats)) if (n) (report as Record<string, number>)[k] = n;
    if (Object.keys(report).length) {
      ctx.report.projection = { ...(ctx.report.projection ?? {}), ...report };
    }
    return out;
  }

  private emptyStats(): Stats {
    return { excluded: 0, keys_dropped: 0, lists_truncated: 0, strings_truncated: 0, depth_limited: 0 };
  }

  private pass(value: unknown, limits: Limits, allow: RegExp | null, stats: Stats): unknown {
    const inc: PatternStates = this.include.length ? this.include.map((p) => p.start()) : null;
    const exc: number[][] = this.exclude.map((p) => p.start());
    const r = this.visit(value, 0, inc, exc, limits, allow, stats);
    if (r === REMOVE) return isRecord(value) ? {} : Array.isArray(value) ? [] : null;
    return r;
  }

  private stepStates(patterns: PathPattern[], states: number[][], seg: string): number[][] {
    return states.map((s, i) => (s.length ? patterns[i]!.step(s, seg) : s));
  }

  private visit(
    v: unknown,
    depth: number,
    inc: PatternStates,
    exc: number[][],
    limits: Limits,
    allow: RegExp | null,
    stats: Stats,
  ): unknown {
    if (typeof v === 'string') {
      if (inc !== null) return REMOVE;
      if (limits.str !== null && v.length > limits.str) {
        stats.strings_truncated++;
        return capText(v, limits.str);
      }
      return v;
    }
    if (typeof v !== 'object' || v === null) return inc !== null ? REMOVE : v;
    const isList = Array.isArray(v);
    if (limits.depth !== null && depth > limits.depth && inc === null) {
      const size = isList ? v.length : Object.keys(v).length;
      // An empty container says as much as its placeholder would.
      if (size > 0) {
        stats.depth_limited++;
        return isList ? `<list: ${size} items>` : `<dict: ${size} keys>`;
      }
    }
    const child = (item: unknown, seg: string): unknown => {
      if (this.excludeKeys.has(seg)) {
        stats.excluded++;
        return REMOVE;
      }
      let childExc = exc;
      if (exc.length) {
        childExc = this.stepStates(this.exclude, exc, seg);
        if (childExc.some((s, i) => this.exclude[i]!.complete(s))) {
          stats.excluded++;
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
      const r = this.visit(item, depth + 1, childInc, childExc, limits, allow, stats);
      if (r === REMOVE) return r;
      if (this.dropNulls && r === null) return REMOVE;
      if (this.dropEmpty && isEmpty(r)) return REMOVE;
      return r;
    };
    if (isList) {
      const list = v as unknown[];
      const limit = limits.list !== null && list.length > limits.list ? limits.list : list.length;
      let out: unknown[] | null = limit < list.length ? [] : null;
      for (let i = 0; i < limit; i++) {
        const item = list[i];
        const r = child(item, String(i));
        if (r !== item && out === null) out = list.slice(0, i);
        if (out !== null && r !== REMOVE) out.push(r);
      }
      if (limit < list.length) {
        stats.lists_truncated++;
        if (this.listMarker) out!.push(`… ${list.length - limit} more items`);
      }
      if (inc !== null && out !== null && out.length === 0) return REMOVE;
      return out ?? list;
    }
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    let out: Record<string, unknown> | null = null;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const item = obj[k];
      let r: unknown;
      if (allow !== null && !allow.test(k)) {
        stats.keys_dropped++;
        r = REMOVE;
      } else r = child(item, k);
      if (r !== item && out === null) {
        out = {};
        for (let j = 0; j < i; j++) out[keys[j]!] = obj[keys[j]!];
      }
      if (out !== null && r !== REMOVE) out[k] = r;
    }
    if (inc !== null && out !== null && Object.keys(out).length === 0) return REMOVE;
    return out ?? obj;
  }
}

function isEmpty(v: unknown): boolean {
  if (v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isRecord(v) && Object.keys(v).length === 0;
}
