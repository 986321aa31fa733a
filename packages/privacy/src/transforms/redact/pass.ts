/**
 * One redaction pass over a value. Containers are copied only when something inside them
 * changed, so untouched subtrees are shared with the input (which is never mutated).
 */
import { isPersonTagKey, isTagMapKey } from '../../detectors/key-rules.js';
import type { Span } from '../../detectors/types.js';
import type { IdentifierMention, KnownIdentifiers } from '../../identifiers/lexicon.js';
import { normalizeKey } from '../../util/keys.js';
import { applyStrategy, DROP, type Dropped, effectiveKind, type StrategyEnv } from '../apply-strategy.js';
import { FENCE_CLOSE, FENCE_OPEN } from '../sanitize.js';
import { REPORT_KEY, type Strategy } from '../strategies.js';
import type { RedactionPlan, RulePlan } from './plan.js';

/** A content-scan result, cached per distinct string. `out` undefined means unchanged. */
export interface ScanEntry {
  out?: string | Dropped;
  /** `[report key, entity]` for each replacement made. */
  events?: Array<[string, string]>;
  /** One detector matched the whole string (key rules that defer use the detector's result). */
  whole?: boolean;
  /** A pseudonym came from the vault: not cached, so the vault sees every use (TTL). */
  vault?: boolean;
}

const UNCHANGED: ScanEntry = Object.freeze({});
const NO_SPANS: readonly Span[] = Object.freeze([]);
const KEY_CACHE_SIZE = 50_000;
/** The name-mention pass skips results that issued more names than this. */
export const MENTION_LIMIT = 5000;

/** Report events are interned, so cached scan results share them instead of allocating. */
const EVENTS = new Map<string, Map<string, [string, string]>>();
function event(kind: string, entity: string): [string, string] {
  let byEntity = EVENTS.get(kind);
  if (!byEntity) {
    byEntity = new Map();
    EVENTS.set(kind, byEntity);
  }
  let e = byEntity.get(entity);
  if (!e) {
    e = [kind, entity];
    byEntity.set(entity, e);
  }
  return e;
}

/** What the walk needs to know about one dict key; cached per raw key for the redactor's life. */
export interface KeyInfo {
  normalized: string;
  rules: RulePlan[] | null;
  tagMap: boolean;
  /** Copied untouched (`skip_keys`). */
  skip: boolean;
  /** Upper-case enum-like key (`SECRET`), not a field name when it holds a count or a group. */
  enumLabel: boolean;
  /** True once a content scan of the key found nothing (independent of vault and namespace). */
  plainKey?: boolean;
}

/** Per vault namespace: content-scan results of strings, and of dict keys (unchanged ones too). */
export interface ScanCaches {
  strings: Map<string, ScanEntry>;
  keys: Map<string, ScanEntry>;
}

/** What this request tells the pass about identifiers (see `TransformContext`). */
export interface KnownValues {
  identifiers?: KnownIdentifiers;
  restored?: Map<string, string>;
}

export interface PassConfig {
  plan: RedactionPlan;
  scanKeys: boolean;
  tags: boolean;
  tagAllowlist: ReadonlySet<string>;
  skipKeys: ReadonlySet<string>;
  cacheSize: number;
  /** Names seen under key rules are collected for the name-mention pass. */
  collectNames: boolean;
}

const ENUM_LABEL = /^[A-Z][A-Z0-9_]*$/;
/** The name and value keys of name/value pairs, as cloud APIs spell them. */
const NAME_VALUE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['name', 'value'],
  ['Name', 'Value'],
  ['key', 'value'],
  ['Key', 'Value'],
  ['ParameterKey', 'ParameterValue'],
  ['parameterKey', 'parameterValue'],
];

/**
 * Abbreviations that end the name of a secret environment variable (`DB_PASS`, `MYSQL_PW`,
 * `SMTP_CREDS`) but are too short to treat as secret-like anywhere else (`pass_rate`, a
 * compliance `PASS`).
 */
const ENV_SECRET_WORDS = /_(?:pass|pw|creds?)$/;

const FENCE_PREFIX = `${FENCE_OPEN} `;
const FENCE_SUFFIX = ` ${FENCE_CLOSE}`;
const FENCED_MIN = FENCE_PREFIX.length + FENCE_SUFFIX.length;

/** Key rules whose verdict a known identifier never overrides. */
const SECRET_CATEGORIES: ReadonlySet<string> = new Set(['secret', 'credential', 'private_key']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class RedactPass {
  readonly counts: Record<string, Record<string, number>> = {};
  readonly names = new Map<string, string>();
  private collectingNames: boolean;
  /** The active sensitive-field rule, also checked on tag keys. */
  private readonly sensitive: RulePlan | undefined;
  /** Known identifiers, when the plan acts on at least one of their entities. */
  private readonly identifiers: KnownIdentifiers | undefined;
  /** Values restored from pseudonyms on the way in, when there are any (see `replaceRestored`). */
  readonly restored: Map<string, string> | undefined;

  constructor(
    private readonly cfg: PassConfig,
    private readonly env: StrategyEnv,
    private readonly caches: ScanCaches,
    private readonly keyInfo: Map<string, KeyInfo>,
    known: KnownValues = {},
  ) {
    this.sensitive = cfg.plan.rules.find((r) => r.active && r.rule.name === 'sensitive_key');
    this.collectingNames = cfg.collectNames;
    const ids = known.identifiers;
    if (
      ids &&
      cfg.plan.actsBeyondSecrets &&
      [...ids.entities()].some((e) => cfg.plan.strategyForKnown(e).kind !== 'keep')
    ) {
      this.identifiers = ids;
    }
    // A caller who sees real values (a role whose plan keeps identifiers) gets them back as
    // they are; only a plan that hides identifiers puts the caller's pseudonyms back.
    if (known.restored && known.restored.size > 0 && cfg.plan.actsBeyondSecrets) {
      this.restored = known.restored;
    }
  }

  /**
   * What replaces a string that is exactly a value the caller sent as a pseudonym, or exactly a
   * known identifier the plan acts on; undefined for any other string.
   */
  private knownWhole(s: string): string | Dropped | undefined {
    if (this.restored !== undefined) {
      const token = this.restored.get(s);
      if (token !== undefined) {
        this.count('pseudonymized', 'restored_value');
        return token;
      }
    }
    if (this.identifiers === undefined) return undefined;
    // Text the sanitizer fenced is still the value it was: look inside the markers.
    const fenced = s.length > FENCED_MIN && s.startsWith(FENCE_PREFIX) && s.endsWith(FENCE_SUFFIX);
    const value = fenced ? s.slice(FENCE_PREFIX.length, s.length - FENCE_SUFFIX.length) : s;
    const entity = this.identifiers.entityOf(value);
    if (entity === undefined) return undefined;
    const strategy = this.cfg.plan.strategyForKnown(entity);
    if (strategy.kind === 'keep') return undefined;
    // A secret stays a secret even when the application lists the value (a key pasted into a
    // tag): the detectors decide, and a pseudonym never carries it into the vault.
    if (this.holdsSecret(value)) return undefined;
    const out = this.applyWhole(strategy, value, entity);
    return fenced && typeof out === 'string' ? `${FENCE_PREFIX}${out}${FENCE_SUFFIX}` : out;
  }

  /** Whether known identifiers take part in this pass. */
  get knowsIdentifiers(): boolean {
    return this.identifiers !== undefined || this.restored !== undefined;
  }

  /** An object key as this pass shows it: a known identifier or restored value replaced. */
  shownKey(k: string): string {
    const known = this.knownWhole(k);
    return typeof known === 'string' ? known : k;
  }

  /** Whether a secret, credential or private-key detector finds anything in `s`. */
  private holdsSecret(s: string): boolean {
    const scanner = this.cfg.plan.scanner;
    if (!scanner.canMatch(s)) return false;
    for (const span of scanner.scan(s)) if (SECRET_CATEGORIES.has(span.detector.category)) return true;
    return false;
  }

  count(kind: string, entity: string, n = 1): void {
    let bucket = this.counts[kind];
    if (bucket === undefined) {
      bucket = {};
      this.counts[kind] = bucket;
    }
    bucket[entity] = (bucket[entity] ?? 0) + n;
  }

  private record(entry: ScanEntry): void {
    const ev = entry.events;
    if (ev) for (let i = 0; i < ev.length; i++) this.count(ev[i]![0], ev[i]![1]);
  }

  // ---- content scanning -------------------------------------------------------------

  /** Detects and applies strategies inside one string; cached by the string. */
  scanEntry(s: string): ScanEntry {
    const detectable = this.cfg.plan.scanner.canMatch(s);
    if (!detectable && this.identifiers === undefined) return UNCHANGED;
    const cache = this.caches.strings;
    let entry = cache.get(s);
    if (entry !== undefined) return entry;
    entry = this.computeEntry(s, detectable);
    // Strings with no match are cheap to rescan (the hint prefilter rejects them), and caching
    // them would churn the cache with every unique id of a large result. Results holding vault
    // pseudonyms are not cached either: the vault memoises them itself, and a cached pseudonym
    // would skip the vault's last-use update and could outlive its TTL.
    if (entry !== UNCHANGED && entry.vault !== true && this.cfg.cacheSize > 0) {
      if (cache.size >= this.cfg.cacheSize) cache.clear();
      cache.set(s, entry);
    }
    return entry;
  }

  /** Scans a dict key. Keys repeat across a result, so every key's result is cached. */
  private scanKey(k: string, info: KeyInfo): string | Dropped {
    // Keys of aggregations are data: `{"111111111111": 3}` names an account as much as a value does.
    const known = this.knownWhole(k);
    if (known !== undefined) return known;
    // With identifiers in play a key's verdict depends on them, so the plain-key shortcut waits.
    if (info.plainKey && this.identifiers === undefined) return k;
    const cache = this.caches.keys;
    let entry = cache.get(k);
    if (entry === undefined) {
      entry = this.computeEntry(k, true);
      if (entry.vault !== true) {
        if (cache.size >= KEY_CACHE_SIZE) cache.clear();
        cache.set(k, entry);
      }
    }
    if (entry === UNCHANGED) {
      if (this.identifiers === undefined) info.plainKey = true;
      return k;
    }
    this.record(entry);
    return entry.out ?? k;
  }

  private computeEntry(s: string, detectable: boolean): ScanEntry {
    const detected = detectable ? this.cfg.plan.scanner.scan(s) : NO_SPANS;
    const spans = this.identifiers ? this.withMentions(detected, this.identifiers.mentionsIn(s)) : detected;
    if (spans.length === 0) return UNCHANGED;
    const whole = spans.length === 1 && spans[0]!.start === 0 && spans[0]!.end === s.length;
    let out = '';
    let last = 0;
    let changed = false;
    const events: Array<[string, string]> = [];
    let fromVault = false;
    for (const span of spans) {
      const strategy =
        'detector' in span
          ? this.cfg.plan.strategyForSpan(span.detector, span.entity)
          : this.cfg.plan.strategyForKnown(span.entity);
      if (strategy.kind === 'keep') continue;
      const value = s.slice(span.start, span.end);
      const replaced = applyStrategy(strategy, value, span.entity, this.env);
      if (strategy.kind === 'pseudonymize' && this.env.vault) fromVault = true;
      // Values a strategy leaves as they are (the vault keeps special addresses) are not counted.
      if (replaced !== value)
        events.push(event(REPORT_KEY[effectiveKind(strategy, this.env.vault)], span.entity));
      if (replaced === DROP) return { out: DROP, events, whole };
      if (replaced !== value) changed = true;
      out += s.slice(last, span.start) + replaced;
      last = span.end;
    }
    if (events.length === 0 && !fromVault) return whole ? { whole } : UNCHANGED;
    const entry: ScanEntry = { events, whole };
    if (changed) entry.out = out + s.slice(last);
    if (fromVault) entry.vault = true;
    return entry;
  }

  /**
   * Detector spans and known-identifier mentions, in order and without overlaps: where the two
   * overlap, the one that starts first wins, and on equal starts the longer.
   */
  private withMentions(
    detected: readonly Span[],
    mentions: readonly IdentifierMention[],
  ): ReadonlyArray<Span | IdentifierMention> {
    if (mentions.length === 0) return detected;
    const acting = mentions.filter((m) => this.cfg.plan.strategyForKnown(m.entity).kind !== 'keep');
    if (detected.length === 0 || acting.length === 0) return acting.length ? acting : detected;
    const all: Array<Span | IdentifierMention> = [...detected, ...acting];
    all.sort((a, b) => a.start - b.start || b.end - a.end);
    const out: Array<Span | IdentifierMention> = [];
    let end = -1;
    for (const span of all) {
      if (span.start < end) continue;
      out.push(span);
      end = span.end;
    }
    return out;
  }

  scanString(s: string): string | Dropped {
    const known = this.knownWhole(s);
    if (known !== undefined) return known;
    const entry = this.scanEntry(s);
    if (entry === UNCHANGED) return s;
    this.record(entry);
    return entry.out ?? s;
  }

  // ---- walking ----------------------------------------------------------------------

  walk(v: unknown): unknown {
    if (typeof v === 'string') return this.scanString(v);
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return this.walkList(v, (item) => this.walk(item));
    return this.walkDict(v as Record<string, unknown>);
  }

  /** The walk of a small dict that is a secret-named name/value pair: its value is the secret. */
  private pairWalker(
    obj: Record<string, unknown>,
    keyCount: number,
  ): ((k: string, v: unknown) => unknown) | undefined {
    // Pairs have two to four keys (`name`/`value`, plus `valueFrom` or CloudFormation's extras).
    if (keyCount > 4 || this.sensitive === undefined) return undefined;
    const secretValue = this.secretPairValue(obj);
    if (secretValue === null) return undefined;
    const rule = this.sensitive;
    return (k, item) =>
      k === secretValue ? this.applyRule(rule, item) : this.walkEntry(this.info(k), item, obj);
  }

  /**
   * For a name/value pair whose name is secret-like (`{"name": "DB_PASS", "value": "…"}`, the
   * shape of ECS task definitions, Lambda and Kubernetes environments, CloudFormation
   * parameters), the key holding the value; null for any other dict.
   */
  private secretPairValue(obj: Record<string, unknown>): string | null {
    const sens = this.sensitive;
    if (sens === undefined) return null;
    for (const [nameKey, valueKey] of NAME_VALUE_PAIRS) {
      if (!(valueKey in obj)) continue;
      const name = obj[nameKey];
      if (typeof name !== 'string') continue;
      const nk = normalizeKey(name);
      if (sens.rule.exclude?.test(nk)) continue;
      if (sens.rule.pattern.test(nk) || ENV_SECRET_WORDS.test(nk)) return valueKey;
    }
    return null;
  }

  private walkList(list: readonly unknown[], fn: (item: unknown) => unknown): unknown[] {
    let out: unknown[] | null = null;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      const r = fn(item);
      if (r !== item && out === null) out = list.slice(0, i);
      if (out !== null && r !== DROP) out.push(r);
    }
    return out ?? (list as unknown[]);
  }

  private walkDict(obj: Record<string, unknown>, given?: (key: string, v: unknown) => unknown): unknown {
    let out: Record<string, unknown> | null = null;
    const keys = Object.keys(obj);
    const valueFn = given ?? this.pairWalker(obj, keys.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = obj[k];
      let nk: string | Dropped = k;
      let nv: unknown = v;
      const info = this.info(k);
      if (!info.skip) {
        nv = valueFn ? valueFn(k, v) : this.walkEntry(info, v, obj);
        if (this.cfg.scanKeys) nk = this.scanKey(k, info);
      }
      if (out === null && (nk !== k || nv !== v)) {
        out = {};
        for (let j = 0; j < i; j++) out[keys[j]!] = obj[keys[j]!];
      }
      if (out !== null && nk !== DROP && nv !== DROP) out[nk] = nv;
    }
    return out ?? obj;
  }

  private info(key: string): KeyInfo {
    let info = this.keyInfo.get(key);
    if (info === undefined) {
      const nk = normalizeKey(key);
      const found = this.cfg.plan.rules.filter(
        (r) => r.active && r.rule.pattern.test(nk) && !r.rule.exclude?.test(nk),
      );
      info = {
        normalized: nk,
        rules: found.length ? found : null,
        tagMap: isTagMapKey(nk),
        enumLabel: ENUM_LABEL.test(key),
        skip: this.cfg.skipKeys.has(key),
      };
      if (this.keyInfo.size >= 100_000) this.keyInfo.clear();
      this.keyInfo.set(key, info);
    }
    return info;
  }

  /** Normalised keys of the dict last asked about (sibling conditions need them). */
  private siblingsOf: Record<string, unknown> | null = null;
  private siblingKeys: Set<string> | null = null;

  private hasSibling(obj: Record<string, unknown>, wanted: readonly string[]): boolean {
    if (this.siblingsOf !== obj || this.siblingKeys === null) {
      this.siblingKeys = new Set(Object.keys(obj).map((k) => this.info(k).normalized));
      this.siblingsOf = obj;
    }
    for (const w of wanted) if (this.siblingKeys.has(w)) return true;
    return false;
  }

  private walkEntry(info: KeyInfo, v: unknown, obj: Record<string, unknown>): unknown {
    if (v === null || typeof v === 'boolean') return v;
    if (this.cfg.tags && info.tagMap && typeof v === 'object') return this.walkTagMap(v);
    const rules = info.rules;
    if (rules !== null) {
      for (const plan of rules) {
        const rule = plan.rule;
        if (rule.requiresSibling && !this.hasSibling(obj, rule.requiresSibling)) continue;
        // Enum labels used as keys ({"SECRET": 3} in a count) are data, not field names.
        if (rule.subtree && typeof v !== 'string' && info.enumLabel) continue;
        return this.applyRule(plan, v);
      }
    }
    return this.walk(v);
  }

  // ---- key rules ----------------------------------------------------------------------

  private applyRule(plan: RulePlan, v: unknown): unknown {
    if (plan.rule.subtree) {
      if (plan.strategy.kind === 'drop') {
        this.count('dropped', plan.rule.entity);
        return DROP;
      }
      return this.replaceLeaves(plan, v);
    }
    if (typeof v === 'string') return this.ruleOnString(plan, v);
    if (typeof v === 'number') return plan.rule.scalars ? this.ruleOnString(plan, String(v)) : v;
    if (Array.isArray(v)) {
      return this.walkList(v, (item) => {
        if (typeof item === 'string') return this.ruleOnString(plan, item);
        if (typeof item === 'number' && plan.rule.scalars) return this.ruleOnString(plan, String(item));
        return this.walk(item);
      });
    }
    return this.walk(v);
  }

  private replaceLeaves(plan: RulePlan, v: unknown): unknown {
    if (v === null) return v;
    if (Array.isArray(v)) return this.walkList(v, (item) => this.replaceLeaves(plan, item));
    if (typeof v === 'object') {
      return this.walkDict(v as Record<string, unknown>, (_k, item) => this.replaceLeaves(plan, item));
    }
    // Strings and numbers are replaced; a boolean flag or an empty value holds no secret (and
    // an empty argument must not be refused).
    if ((typeof v !== 'string' && typeof v !== 'number') || v === '') return v;
    const text = String(v);
    return this.applyWhole(plan.strategy, text, plan.rule.entity);
  }

  private applyWhole(strategy: Strategy, value: string, entity: string): string | Dropped {
    const out = applyStrategy(strategy, value, entity, this.env);
    if (out !== value) this.count(REPORT_KEY[effectiveKind(strategy, this.env.vault)], entity);
    return out;
  }

  private ruleOnString(plan: RulePlan, s: string): string | Dropped {
    if (s === '') return s;
    const rule = plan.rule;
    // A value the application knows keeps one entity (and so one pseudonym) whatever key holds
    // it; a secret rule still wins, since a password equal to a name is a password.
    if (!SECRET_CATEGORIES.has(rule.category)) {
      const known = this.knownWhole(s);
      if (known !== undefined) return known;
    }
    if (rule.defer) {
      const entry = this.scanEntry(s);
      if (entry.whole) {
        this.record(entry);
        return entry.out ?? s;
      }
    }
    let entity = rule.entity;
    let strategy = plan.strategy;
    if (rule.typedByShape) ({ entity, strategy } = this.cfg.plan.typedAccountStrategy(plan, s));
    if (strategy.kind === 'keep') return this.scanString(s);
    const out = this.applyWhole(strategy, s, entity);
    if (this.collectingNames && entity === 'resource_name' && typeof out === 'string' && out !== s) {
      this.names.set(s, out);
      // Past the limit the mention pass is skipped anyway; stop paying for the map.
      if (this.names.size > MENTION_LIMIT) this.collectingNames = false;
    }
    return out;
  }

  // ---- tag maps -----------------------------------------------------------------------

  private walkTagMap(v: object): unknown {
    if (Array.isArray(v)) {
      return this.walkList(v, (item) => {
        if (!isRecord(item)) return this.walk(item);
        const keyField = 'Key' in item ? 'Key' : 'key' in item ? 'key' : null;
        const valueField = 'Value' in item ? 'Value' : 'value' in item ? 'value' : null;
        const tagKey = keyField ? item[keyField] : undefined;
        if (typeof tagKey !== 'string' || valueField === null) return this.walk(item);
        return this.walkDict(item, (k, val) =>
          k === valueField ? this.tagValue(tagKey, val) : this.walk(val),
        );
      });
    }
    return this.walkDict(v as Record<string, unknown>, (k, val) => this.tagValue(k, val));
  }

  private tagValue(tagKey: string, val: unknown): unknown {
    const nk = normalizeKey(tagKey);
    const sens = this.sensitive;
    if (sens?.rule.pattern.test(nk) && !sens.rule.exclude?.test(nk)) return this.applyRule(sens, val);
    if (typeof val !== 'string' || val === '' || this.cfg.tagAllowlist.has(nk)) return this.walk(val);
    // A value known as more than a tag value (an account's name, say) keeps that entity; one
    // known only as a tag value is typed by its tag key below (a person for `owner`).
    if (this.identifiers?.entityOf(val) !== 'tag_value') {
      const known = this.knownWhole(val);
      if (known !== undefined) return known;
    }
    const entity = isPersonTagKey(nk) ? 'person' : 'tag_value';
    const strategy = this.cfg.plan.resolve(
      entity === 'person' ? ['person', 'pii'] : ['tag_value', 'free_text'],
    );
    // A secret pasted into a tag is redacted by its detector, not pseudonymised into the vault.
    if (strategy.kind === 'keep' || this.holdsSecret(val)) return this.scanString(val);
    return this.applyWhole(strategy, val, entity);
  }
}
