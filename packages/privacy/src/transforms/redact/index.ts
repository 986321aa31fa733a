/**
 * `redact`: finds sensitive entities in strings, dict keys and key-ruled values and applies a
 * strategy to each (section 11.2 of the reference).
 */
import { compileExtraKeyRule, DEFAULT_TAG_KEY_ALLOWLIST } from '../../detectors/key-rules.js';
import type { KnownIdentifiers } from '../../identifiers/lexicon.js';
import { MentionFinder } from '../../identifiers/lexicon.js';
import type { PseudonymVault, Transform, TransformContext, TransformReport } from '../../types.js';
import { normalizeKey } from '../../util/keys.js';
import { OptionReader } from '../../util/options.js';
import { DROP, type StrategyEnv } from '../apply-strategy.js';
import { type DescribeFilter, type DetectorsDescription, describePlan } from './describe.js';
import { type KeyInfo, MENTION_LIMIT, RedactPass, type ScanCaches } from './pass.js';
import { RedactionPlan } from './plan.js';

export const REDACT_OPTIONS = [
  'strategies',
  'default',
  'custom_detectors',
  'disabled_detectors',
  'key_rules',
  'extra_key_rules',
  'min_confidence',
  'scan_keys',
  'tags',
  'tag_key_allowlist',
  'skip_keys',
  'allow_pseudonymize',
  'redact_template',
  'hash_template',
  'cache_size',
  'name_mentions',
] as const;

export const DEFAULT_SKIP_KEYS: readonly string[] = ['_meta', '_annotations', 'cursor', 'next_cursor'];

/** What a pipeline builder hands every transform (the policy supplies these). */
export interface RedactBuildContext {
  vault?: PseudonymVault;
  /** The policy's custom detectors, added to the transform's own. */
  detectors?: readonly unknown[];
  disabledDetectors?: readonly string[];
}

export interface RedactorSettings {
  /** Restrict detectors to these categories (used by the secret guard). */
  categories?: readonly string[];
}

function mergeReport(
  report: TransformReport,
  counts: Record<string, Record<string, number>>,
  rename?: string,
) {
  for (const [kind, byEntity] of Object.entries(counts)) {
    const key = rename ?? kind;
    const bucket = (report[key] as Record<string, number> | undefined) ?? {};
    for (const [entity, n] of Object.entries(byEntity)) bucket[entity] = (bucket[entity] ?? 0) + n;
    report[key] = bucket;
  }
}

export class Redactor implements Transform {
  readonly name = 'redact';
  readonly plan: RedactionPlan;
  private readonly scanKeys: boolean;
  private readonly tags: boolean;
  private readonly tagAllowlist: ReadonlySet<string>;
  private readonly skipKeys: ReadonlySet<string>;
  private readonly redactTemplate: string;
  private readonly hashTemplate: string;
  private readonly cacheSize: number;
  private readonly nameMentions: boolean;
  private readonly vault: PseudonymVault | undefined;
  private caches = new Map<string, ScanCaches>();
  private cacheVault: PseudonymVault | undefined;
  private cacheIdentifiers: KnownIdentifiers | undefined;
  private readonly keyInfo = new Map<string, KeyInfo>();

  constructor(
    options: Record<string, unknown> = {},
    build: RedactBuildContext = {},
    readonly id = 'redact',
    settings: RedactorSettings = {},
  ) {
    const o: OptionReader = new OptionReader('redact', options, REDACT_OPTIONS);
    this.vault = build.vault;
    const extra = o.list('extra_key_rules').map((r) => compileExtraKeyRule('redact', r));
    const keyRulesRaw = o.raw('key_rules');
    let keyRules: boolean | string[] = true;
    if (keyRulesRaw !== undefined) {
      if (typeof keyRulesRaw === 'boolean') keyRules = keyRulesRaw;
      else keyRules = o.strList('key_rules', []);
    }
    this.plan = new RedactionPlan({
      strategies: o.record('strategies'),
      defaultStrategy: o.has('default') ? o.raw('default') : undefined,
      customDetectors: [...o.list('custom_detectors'), ...(build.detectors ?? [])],
      disabledDetectors: [...o.strList('disabled_detectors', []), ...(build.disabledDetectors ?? [])],
      keyRules,
      extraKeyRules: extra,
      minConfidence: o.num('min_confidence', 0, 0),
      allowPseudonymize: o.bool('allow_pseudonymize', true),
      ...(settings.categories ? { categories: settings.categories } : {}),
    });
    this.scanKeys = o.bool('scan_keys', true);
    this.tags = o.bool('tags', true);
    this.tagAllowlist = new Set(o.strList('tag_key_allowlist', DEFAULT_TAG_KEY_ALLOWLIST).map(normalizeKey));
    this.skipKeys = new Set(o.strList('skip_keys', DEFAULT_SKIP_KEYS));
    this.redactTemplate = o.optStr('redact_template') ?? '[REDACTED:{entity}]';
    this.hashTemplate = o.optStr('hash_template') ?? '{entity}:{digest}';
    this.cacheSize = o.num('cache_size', 200_000, 0);
    this.nameMentions = o.bool('name_mentions', true);
  }

  private cacheFor(
    vault: PseudonymVault | undefined,
    namespace: string | undefined,
    identifiers: KnownIdentifiers | undefined,
  ): ScanCaches {
    // Cached scan results depend on the vault and on the identifiers known when they were made.
    if (vault !== this.cacheVault || identifiers !== this.cacheIdentifiers) {
      this.caches = new Map();
      this.cacheVault = vault;
      this.cacheIdentifiers = identifiers;
    }
    const key = namespace ?? '';
    let cache = this.caches.get(key);
    if (!cache) {
      cache = { strings: new Map(), keys: new Map() };
      this.caches.set(key, cache);
    }
    return cache;
  }

  /** Runs a pass and returns the result with its counts, without touching a report. */
  run(
    value: unknown,
    ctx: Pick<TransformContext, 'vault' | 'principal' | 'identifiers' | 'restored'>,
  ): {
    value: unknown;
    counts: Record<string, Record<string, number>>;
    /** Rewrites a path of object keys as this pass shows them, when identifiers took part. */
    shownPath?: (path: string) => string;
  } {
    const vault = ctx.vault ?? this.vault;
    const namespace = vault ? vault.namespaceFor(ctx.principal?.id ?? null) : undefined;
    const env: StrategyEnv = {
      vault,
      namespace,
      redactTemplate: this.redactTemplate,
      hashTemplate: this.hashTemplate,
    };
    const pass = new RedactPass(
      {
        plan: this.plan,
        scanKeys: this.scanKeys,
        tags: this.tags,
        tagAllowlist: this.tagAllowlist,
        skipKeys: this.skipKeys,
        cacheSize: this.cacheSize,
        collectNames: this.nameMentions,
      },
      env,
      this.cacheFor(vault, namespace, ctx.identifiers),
      this.keyInfo,
      {
        ...(ctx.identifiers ? { identifiers: ctx.identifiers } : {}),
        ...(ctx.restored ? { restored: ctx.restored } : {}),
      },
    );
    let out = pass.walk(value);
    if (out === DROP) out = typeof value === 'string' ? '[REDACTED:content]' : null;
    if (this.nameMentions && pass.names.size > 0 && pass.names.size <= MENTION_LIMIT) {
      out = replaceMentions(out, pass.names, this.skipKeys, (n) =>
        pass.count('pseudonymized', 'resource_name_mention', n),
      );
    }
    if (pass.restored) {
      out = replaceRestored(out, pass.restored, this.skipKeys, (n) =>
        pass.count('pseudonymized', 'restored_value', n),
      );
    }
    if (!pass.knowsIdentifiers) return { value: out, counts: pass.counts };
    const shownPath = (path: string) =>
      path
        .split('.')
        .map((k) => pass.shownKey(k))
        .join('.');
    return { value: out, counts: pass.counts, shownPath };
  }

  /** Detectors and key rules with the strategy this redactor gives each (section 12.4). */
  describe(filter: DescribeFilter = {}): DetectorsDescription {
    return describePlan(this.plan, filter);
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    const { value: out, counts, shownPath } = this.run(value, ctx);
    mergeReport(ctx.report, counts);
    // The sanitizer ran first and reported where it fenced text by the keys of the path; those
    // keys are data too (a dataset name keying a relation list), so they are shown as values are.
    const untrusted = ctx.report.untrusted;
    if (shownPath && untrusted && untrusted.paths.length > 0)
      untrusted.paths = untrusted.paths.map(shownPath);
    return out;
  }
}

export { mergeReport };

/** Restored values looked for inside text, longest first; a request rarely restores more. */
const MAX_RESTORED_IN_TEXT = 32;

function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

/**
 * Puts the caller's pseudonyms back inside text wherever a value restored from them stands
 * between non-word characters (`No asset 'bastion' here`), however plain a word: it is the
 * caller's own reference, echoed. Whole values were handled during the walk. Each restored value
 * costs one native substring search per string, and at most 32 are looked for.
 */
function replaceRestored(
  value: unknown,
  restored: ReadonlyMap<string, string>,
  skipKeys: ReadonlySet<string>,
  onCount: (n: number) => void,
): unknown {
  const pairs = [...restored]
    .filter(([real]) => real.length >= 3)
    .sort((a, b) => b[0].length - a[0].length)
    .slice(0, MAX_RESTORED_IN_TEXT);
  if (pairs.length === 0) return value;
  let total = 0;
  const replaceIn = (text: string): string => {
    let out = text;
    for (const [real, token] of pairs) {
      let at = out.indexOf(real);
      if (at === -1) continue;
      let built = '';
      let last = 0;
      while (at !== -1) {
        const end = at + real.length;
        const bounded =
          (at === 0 || !isWordCode(out.charCodeAt(at - 1))) &&
          (end === out.length || !isWordCode(out.charCodeAt(end)));
        if (bounded) {
          built += out.slice(last, at) + token;
          last = end;
          total++;
        }
        at = out.indexOf(real, bounded ? end : at + 1);
      }
      if (last > 0) out = built + out.slice(last);
    }
    return out;
  };
  const result = mapTextValues(value, skipKeys, replaceIn);
  if (total) onCount(total);
  return result;
}

/** `value` with `fn` applied to every string value outside `skipKeys`; unchanged parts are shared. */
function mapTextValues(value: unknown, skipKeys: ReadonlySet<string>, fn: (s: string) => string): unknown {
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return fn(v);
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      v.forEach((item, i) => {
        const r = visit(item);
        if (r !== item && !out) out = v.slice(0, i);
        if (out) out.push(r);
      });
      return out ?? v;
    }
    let out: Record<string, unknown> | null = null;
    const keys = Object.keys(v);
    keys.forEach((k, i) => {
      const item = (v as Record<string, unknown>)[k];
      const r = skipKeys.has(k) ? item : visit(item);
      if (r !== item && !out) {
        out = {};
        for (let j = 0; j < i; j++) out[keys[j]!] = (v as Record<string, unknown>)[keys[j]!];
      }
      if (out) out[k] = r;
    });
    return out ?? v;
  };
  return visit(value);
}

/**
 * Replaces names that key rules pseudonymised wherever else they appear in the same result: strings that are exactly such a name, and
 * mentions inside longer text under the known-identifier rule (distinctive names only, so
 * `web` or `prod` in prose are left alone). Linear in the text: see `MentionFinder`.
 */
function replaceMentions(
  value: unknown,
  names: Map<string, string>,
  skipKeys: ReadonlySet<string>,
  onCount: (n: number) => void,
): unknown {
  const finder = new MentionFinder(names.keys());
  let total = 0;
  const replaceIn = (v: string): string => {
    const whole = names.get(v);
    if (whole !== undefined) {
      total++;
      return whole;
    }
    if (finder.isEmpty) return v;
    const found = finder.find(v);
    if (found.length === 0) return v;
    let out = '';
    let last = 0;
    for (const f of found) {
      out += v.slice(last, f.start) + (names.get(f.value) ?? f.value);
      last = f.end;
    }
    total += found.length;
    return out + v.slice(last);
  };
  const result = mapTextValues(value, skipKeys, replaceIn);
  if (total) onCount(total);
  return result;
}
