/**
 * The redaction plan: which detectors and key rules are active and the strategy each entity
 * gets. Built once per transform so the walk only does map lookups.
 */
import { compileCustomDetector } from '../../detectors/custom.js';
import { entityChain } from '../../detectors/entities.js';
import { accountEntityFor, builtinKeyRules, type KeyRule } from '../../detectors/key-rules.js';
import { defaultDetectors, overlayDetectors } from '../../detectors/registry.js';
import { DetectorSet } from '../../detectors/scan.js';
import type { Detector } from '../../detectors/types.js';
import { KEEP, parseStrategy, type Strategy } from '../strategies.js';

export const TYPED_ACCOUNT_ENTITIES = [
  'aws_account_id',
  'azure_subscription_id',
  'gcp_project_id',
  'gcp_project_number',
  'cloud_account',
] as const;

/**
 * The categories an application-named identifier falls back to, for entities that are not
 * plain identifiers: tag values are free text (as in tag maps), people and e-mails are PII.
 */
const KNOWN_CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  tag_value: ['free_text'],
  person: ['pii'],
  email: ['pii'],
  ip_address: ['network'],
  hostname: ['network'],
};

/** Strategy-table keys that concern secrets only. */
const SECRET_KEYS: ReadonlySet<string> = new Set(['secret', 'private_key', 'credential']);

export interface PlanInput {
  strategies: Record<string, unknown>;
  defaultStrategy: unknown;
  customDetectors: readonly unknown[];
  disabledDetectors: readonly string[];
  keyRules: boolean | readonly string[];
  extraKeyRules: readonly KeyRule[];
  minConfidence: number;
  allowPseudonymize: boolean;
  /** Only detectors of these categories (the secret guard). */
  categories?: readonly string[];
}

export interface DetectorPlan {
  detector: Detector;
  /** Strategy per reportable entity. */
  byEntity: Map<string, Strategy>;
  /** The strategy of the base entity (for listings). */
  base: Strategy;
  active: boolean;
}

export interface RulePlan {
  rule: KeyRule;
  strategy: Strategy;
  /** For rules typed by shape: strategy per typed entity. */
  typed?: Map<string, Strategy>;
  active: boolean;
}

/** Accepts a compiled detector or a configuration mapping. */
function toDetector(d: unknown): Detector {
  if (typeof d === 'object' && d !== null && (d as Detector).pattern instanceof RegExp) return d as Detector;
  return compileCustomDetector(d);
}

export class RedactionPlan {
  readonly table = new Map<string, Strategy>();
  readonly fallback: Strategy;
  readonly detectors: DetectorPlan[] = [];
  /** Active detectors in priority order. */
  readonly active: Detector[] = [];
  /** The active detectors compiled for scanning. */
  readonly scanner: DetectorSet;
  readonly rules: RulePlan[] = [];
  private readonly byDetector = new Map<Detector, DetectorPlan>();
  private readonly known = new Map<string, Strategy>();

  constructor(input: PlanInput) {
    for (const [key, spec] of Object.entries(input.strategies)) {
      this.table.set(key, this.allow(parseStrategy(spec), input.allowPseudonymize));
    }
    const fromTable = this.table.get('default');
    this.fallback =
      input.defaultStrategy !== undefined
        ? this.allow(parseStrategy(input.defaultStrategy), input.allowPseudonymize)
        : (fromTable ?? KEEP);

    const all = overlayDetectors(defaultDetectors(), input.customDetectors.map(toDetector));
    const disabled = new Set(input.disabledDetectors);
    for (const d of all) {
      if (!d.enabled || disabled.has(d.name) || d.confidence < input.minConfidence) continue;
      if (input.categories && !input.categories.includes(d.category)) continue;
      const byEntity = new Map<string, Strategy>();
      let active = false;
      for (const e of d.entities) {
        const s = this.resolve([...entityChain(e), d.name, d.category]);
        byEntity.set(e, s);
        if (s.kind !== 'keep') active = true;
      }
      const plan: DetectorPlan = {
        detector: d,
        byEntity,
        base: this.resolve([...entityChain(d.entity), d.name, d.category]),
        active,
      };
      this.detectors.push(plan);
      this.byDetector.set(d, plan);
      if (active) this.active.push(d);
    }

    this.scanner = new DetectorSet(this.active);
    const builtin = builtinKeyRules();
    const wanted =
      input.keyRules === true
        ? builtin
        : input.keyRules === false
          ? []
          : builtin.filter((r) => (input.keyRules as readonly string[]).includes(r.name));
    for (const rule of [...wanted, ...input.extraKeyRules]) {
      const ruleKeys = [rule.name, rule.category];
      if (rule.typedByShape) {
        const typed = new Map<string, Strategy>();
        let active = false;
        for (const e of TYPED_ACCOUNT_ENTITIES) {
          const s = this.resolve([...entityChain(e), 'cloud_account', 'aws_account_id', ...ruleKeys]);
          typed.set(e, s);
          if (s.kind !== 'keep') active = true;
        }
        const strategy = typed.get('cloud_account')!;
        this.rules.push({ rule, strategy, typed, active });
      } else {
        const strategy = this.resolve([...entityChain(rule.entity), ...ruleKeys]);
        this.rules.push({ rule, strategy, active: strategy.kind !== 'keep' });
      }
    }
  }

  private allow(s: Strategy, allowPseudonymize: boolean): Strategy {
    return !allowPseudonymize && s.kind === 'pseudonymize' ? KEEP : s;
  }

  /** The first of `keys` with a strategy, else the default. */
  resolve(keys: readonly string[]): Strategy {
    for (const k of keys) {
      const s = this.table.get(k);
      if (s) return s;
    }
    return this.fallback;
  }

  strategyForSpan(d: Detector, entity: string): Strategy {
    return (
      this.byDetector.get(d)?.byEntity.get(entity) ??
      this.resolve([...entityChain(entity), d.name, d.category])
    );
  }

  /**
   * The strategy for an identifier an application named by value (see `KnownIdentifiers`):
   * its entity, the entity's parents, then the category such a value belongs to.
   */
  strategyForKnown(entity: string): Strategy {
    let s = this.known.get(entity);
    if (s === undefined) {
      s = this.resolve([...entityChain(entity), ...(KNOWN_CATEGORIES[entity] ?? ['identifier'])]);
      this.known.set(entity, s);
    }
    return s;
  }

  typedAccountStrategy(plan: RulePlan, value: string): { entity: string; strategy: Strategy } {
    const entity = accountEntityFor(value);
    return { entity, strategy: plan.typed?.get(entity) ?? plan.strategy };
  }

  /**
   * True when some strategy acts on more than secrets: only then can an identifier an
   * application names by value change anything, so only then is it worth looking up.
   */
  get actsBeyondSecrets(): boolean {
    if (this.fallback.kind !== 'keep') return true;
    for (const [key, s] of this.table) if (s.kind !== 'keep' && !SECRET_KEYS.has(key)) return true;
    return false;
  }

  /** True when at least one strategy pseudonymises (so the input side needs a reverser). */
  get pseudonymizes(): boolean {
    return [...this.table.values(), this.fallback].some((s) => s.kind === 'pseudonymize');
  }
}
