/**
 * `regex_replace`: rewrites strings with operator regexes (section 11.5). One-way.
 */
import { stripVerbose } from '../detectors/custom.js';
import type { Transform, TransformContext } from '../types.js';
import { compileGlobs } from '../util/glob.js';
import { isRecord, OptionReader } from '../util/options.js';
import { mapStrings } from './alias.js';

interface Rule {
  re: RegExp;
  replacement: string;
  keys: RegExp | null;
  count: number;
}

/** Python-style pattern syntax to JS: named groups and back-references. */
export function toJsPattern(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
}

/** Python-style replacement (`\1`, `\g<name>`) to a JS replacement string. */
export function toJsReplacement(replacement: string): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '$') out += '$$';
    else if (c === '\\' && i + 1 < replacement.length) {
      const next = replacement[i + 1]!;
      const g = /^g<(\w+)>/.exec(replacement.slice(i + 1));
      if (g) {
        out += /^\d+$/.test(g[1]!) ? `$${g[1]}` : `$<${g[1]}>`;
        i += g[0].length;
      } else if (/\d/.test(next)) {
        out += `$${next}`;
        i++;
      } else if (next === 'n') {
        out += '\n';
        i++;
      } else if (next === '\\') {
        out += '\\';
        i++;
      } else out += c;
    } else out += c;
  }
  return out;
}

/** Expands a JS replacement template (`$1`, `$<name>`, `$&`, `$$`) for one match. */
function expand(template: string, args: unknown[]): string {
  const last = args[args.length - 1];
  const named = typeof last === 'object' && last !== null ? (last as Record<string, string | undefined>) : {};
  const groupCount = args.length - (typeof last === 'object' && last !== null ? 4 : 3);
  return template.replace(
    /\$(\$|&|<(\w+)>|(\d{1,2}))/g,
    (whole, what: string, name?: string, num?: string) => {
      if (what === '$') return '$';
      if (what === '&') return args[0] as string;
      if (name !== undefined) return named[name] ?? '';
      const i = Number(num);
      if (i >= 1 && i <= groupCount) return (args[i] as string | undefined) ?? '';
      return whole;
    },
  );
}

export class RegexReplace implements Transform {
  readonly name = 'regex_replace';
  private readonly rules: Rule[];

  constructor(
    options: Record<string, unknown> = {},
    readonly id = 'regex_replace',
    transformName = 'regex_replace',
    optionName = 'rules',
  ) {
    const o: OptionReader = new OptionReader(transformName, options, [optionName]);
    this.rules = o.list(optionName).map((raw, i) => {
      if (!isRecord(raw) || typeof raw.pattern !== 'string')
        o.fail(`${optionName}[${i}]`, "a mapping with a 'pattern'");
      const allowed = ['pattern', 'replace', 'replacement', 'keys', 'flags', 'count'];
      for (const k of Object.keys(raw))
        if (!allowed.includes(k)) o.fail(`${optionName}[${i}].${k}`, 'a known rule field');
      const flagsRaw = raw.flags ?? '';
      if (typeof flagsRaw !== 'string' || !/^[imsx]*$/.test(flagsRaw))
        o.fail(`${optionName}[${i}].flags`, 'letters from imsx');
      let source = toJsPattern(raw.pattern as string);
      if (flagsRaw.includes('x')) source = stripVerbose(source);
      let re: RegExp;
      try {
        re = new RegExp(source, `g${flagsRaw.replace('x', '')}`);
      } catch {
        return o.fail(`${optionName}[${i}].pattern`, 'a valid regular expression');
      }
      const rep = raw.replace ?? raw.replacement ?? '';
      if (typeof rep !== 'string') o.fail(`${optionName}[${i}].replace`, 'a string');
      const keys = raw.keys === undefined || raw.keys === null ? null : raw.keys;
      if (keys !== null && (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string'))) {
        o.fail(`${optionName}[${i}].keys`, 'a list of key globs');
      }
      const count = raw.count ?? 0;
      if (typeof count !== 'number' || count < 0 || !Number.isInteger(count))
        o.fail(`${optionName}[${i}].count`, 'an integer >= 0');
      return {
        re,
        replacement: toJsReplacement(rep as string),
        keys: keys ? compileGlobs(keys as string[]) : null,
        count,
      };
    });
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    if (this.rules.length === 0) return value;
    let total = 0;
    const out = mapStrings(value, (s, key) => {
      let cur = s;
      for (const rule of this.rules) {
        if (rule.keys && (key === undefined || !rule.keys.test(key))) continue;
        rule.re.lastIndex = 0;
        let n = 0;
        cur = cur.replace(rule.re, (...args: unknown[]) => {
          const match = args[0] as string;
          if (rule.count && n >= rule.count) return match;
          n++;
          return expand(rule.replacement, args);
        });
        total += n;
      }
      return cur;
    });
    if (total) ctx.report.regex_replaced = (ctx.report.regex_replaced ?? 0) + total;
    return out;
  }
}
