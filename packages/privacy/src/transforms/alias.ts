/**
 * `alias`: operator-chosen display values for real identifiers (section 11.5), reversible on
 * input. Dict keys are aliased too.
 */
import { readFileSync } from 'node:fs';
import { accountEntityFor } from '../detectors/key-rules.js';
import type { PseudonymVault, Transform, TransformContext } from '../types.js';
import { MiniYamlError, parseMiniYaml } from '../util/mini-yaml.js';
import { isRecord, OptionReader } from '../util/options.js';

export const ALIAS_OPTIONS = ['aliases', 'files', 'substring', 'case_sensitive', 'pseudonym_aware'] as const;

export interface AliasEntry {
  real: string;
  alias: string;
  /** Set when the table groups aliases by entity. */
  entity?: string;
}

export interface AliasBuildContext {
  vault?: PseudonymVault;
  /** Reads an alias file; defaults to JSON, or a small YAML subset, from disk. */
  readFile?: (path: string) => unknown;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function defaultReadFile(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.json')) return JSON.parse(text);
  return parseMiniYaml(text);
}

/** Flattens `{real: alias}` and `{entity: {real: alias}}` tables. */
function flatten(transform: string, table: unknown, out: AliasEntry[], o: OptionReader): void {
  if (table === undefined || table === null) return;
  if (!isRecord(table)) o.fail('aliases', 'a mapping');
  const src = isRecord(table.aliases) && Object.keys(table).length === 1 ? table.aliases : table;
  for (const [k, v] of Object.entries(src as Record<string, unknown>)) {
    if (typeof v === 'string' || typeof v === 'number') out.push({ real: k, alias: String(v) });
    else if (isRecord(v)) {
      for (const [real, alias] of Object.entries(v)) {
        if (typeof alias !== 'string' && typeof alias !== 'number') o.fail('aliases', 'a mapping of strings');
        out.push({ real, alias: String(alias), entity: k });
      }
    } else o.fail('aliases', `a mapping of strings (in ${transform})`);
  }
}

interface Matcher {
  exact: Map<string, string>;
  re: RegExp | null;
}

export class AliasMap implements Transform {
  readonly name = 'alias';
  readonly entries: AliasEntry[] = [];
  private readonly substring: boolean;
  private readonly caseSensitive: boolean;
  private readonly pseudonymAware: boolean;
  private readonly vault: PseudonymVault | undefined;
  private readonly forward: Matcher;
  private readonly backward: Matcher;
  private readonly awareCache = new Map<string, Matcher>();

  constructor(
    options: Record<string, unknown> = {},
    build: AliasBuildContext = {},
    readonly id = 'alias',
    transformName = 'alias',
  ) {
    const o: OptionReader = new OptionReader(transformName, options, ALIAS_OPTIONS);
    const read = build.readFile ?? defaultReadFile;
    for (const file of o.strList('files', [])) {
      let doc: unknown;
      try {
        doc = read(file);
      } catch (err) {
        const reason =
          err instanceof MiniYamlError || err instanceof SyntaxError ? err.message : 'unreadable';
        o.fail('files', `readable JSON or YAML alias files (${reason})`);
      }
      flatten(transformName, doc, this.entries, o);
    }
    flatten(transformName, o.raw('aliases'), this.entries, o);
    this.substring = o.bool('substring', true);
    this.caseSensitive = o.bool('case_sensitive', true);
    this.pseudonymAware = o.bool('pseudonym_aware', true);
    this.vault = build.vault;
    this.forward = this.matcher(this.entries.map((e) => [e.real, e.alias]));
    // If two real values share an alias, the later one wins on the way back.
    this.backward = this.matcher(this.entries.map((e) => [e.alias, e.real]));
  }

  get size(): number {
    return this.entries.length;
  }

  private norm(s: string): string {
    return this.caseSensitive ? s : s.toLowerCase();
  }

  private matcher(pairs: Array<[string, string]>): Matcher {
    const exact = new Map<string, string>();
    for (const [from, to] of pairs) if (from !== '') exact.set(this.norm(from), to);
    const keys = [...exact.keys()].sort((a, b) => b.length - a.length);
    const re =
      this.substring && keys.length
        ? new RegExp(
            `(?<![A-Za-z0-9])(?:${keys.map(escapeRegex).join('|')})(?![A-Za-z0-9])`,
            this.caseSensitive ? 'g' : 'gi',
          )
        : null;
    return { exact, re };
  }

  private replaceWith(m: Matcher, s: string): [string, number] {
    const whole = m.exact.get(this.norm(s));
    if (whole !== undefined) return [whole, 1];
    if (!m.re) return [s, 0];
    let n = 0;
    const out = s.replace(m.re, (hit) => {
      const to = m.exact.get(this.norm(hit));
      if (to === undefined) return hit;
      n++;
      return to;
    });
    return [out, n];
  }

  /** The forward matcher, extended with the caller's pseudonyms of aliased values. */
  private matcherFor(ctx: TransformContext): Matcher {
    const vault = ctx.vault ?? this.vault;
    if (!this.pseudonymAware || !vault) return this.forward;
    const ns = vault.namespaceFor(ctx.principal?.id ?? null);
    const extra: Array<[string, string]> = [];
    for (const e of this.entries) {
      const entities = e.entity ? [e.entity] : [accountEntityFor(e.real), 'resource_name'];
      for (const entity of entities) {
        const p = vault.lookup(e.real, entity, { namespace: ns });
        if (p && p !== e.real) extra.push([p, e.alias]);
      }
    }
    if (extra.length === 0) return this.forward;
    const sig = extra.map((p) => p[0]).join('\u0000');
    let m = this.awareCache.get(sig);
    if (!m) {
      m = this.matcher([...this.entries.map((e): [string, string] => [e.real, e.alias]), ...extra]);
      if (this.awareCache.size > 100) this.awareCache.clear();
      this.awareCache.set(sig, m);
    }
    return m;
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    if (this.entries.length === 0) return value;
    const m = this.matcherFor(ctx);
    let total = 0;
    const str = (s: string): string => {
      const [out, n] = this.replaceWith(m, s);
      total += n;
      return out;
    };
    const out = mapStrings(value, str, str);
    if (total) ctx.report.aliased = (ctx.report.aliased ?? 0) + total;
    return out;
  }

  /** Reverses aliases in one string; returns the text and how many aliases were replaced. */
  reverse(text: string): [string, number] {
    if (this.entries.length === 0) return [text, 0];
    return this.replaceWith(this.backward, text);
  }
}

/**
 * Copy-on-write map over every string value (and optionally every dict key) of a JSON value.
 */
export function mapStrings(
  value: unknown,
  onValue: (s: string, key: string | undefined) => string,
  onKey?: (k: string) => string,
  key?: string,
): unknown {
  if (typeof value === 'string') return onValue(value, key);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const r = mapStrings(value[i], onValue, onKey, key);
      if (r !== value[i] && out === null) out = value.slice(0, i);
      if (out !== null) out.push(r);
    }
    return out ?? value;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const nk = onKey ? onKey(k) : k;
    const r = mapStrings(obj[k], onValue, onKey, k);
    if (out === null && (r !== obj[k] || nk !== k)) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = obj[keys[j]!];
    }
    if (out !== null) out[nk] = r;
  }
  return out ?? value;
}
