import type { ControlRef } from '../loaders/finding-factory.js';
import type { Finding } from '../model/finding.js';
import { checkPieces, findingCheck } from './check-ids.js';
import { FALLBACK_FRAMEWORKS } from './fallback-frameworks.js';
import type { PatternRule, RulesetCatalog } from './ruleset-catalog.js';

/**
 * Compliance mapping, most precise first. Each finding keeps what its scanner said (tier 1), gains
 * every ruleset control whose `checks` list its check (tier 2); only a finding still without any
 * framework is matched against the rulesets' `patterns` (tier 3), and only one that matched none
 * of those against the built-in keywords (tier 4). Then every framework of the finding gets a
 * control: the precise ones it has, else one derived from its check (`<framework>/<check>`), else
 * the framework's `<framework>-aggregate` control.
 */

/**
 * One shared object per (framework, control id), so a control's identity is the object itself:
 * a hundred thousand findings need no key strings to deduplicate their controls, and the
 * titles mapping gives new controls live beside them.
 */
export class ControlRegistry {
  readonly #refs = new Map<string, Map<string, ControlRef>>();
  readonly #titles = new Map<ControlRef, string>();

  ref(framework: string, controlId: string): ControlRef {
    let byId = this.#refs.get(framework);
    if (!byId) {
      byId = new Map();
      this.#refs.set(framework, byId);
    }
    let ref = byId.get(controlId);
    if (!ref) {
      ref = { framework, control_id: controlId };
      byId.set(controlId, ref);
    }
    return ref;
  }

  /** Give a control its title, unless it has one. */
  entitle(ref: ControlRef, title: () => string): void {
    if (!this.#titles.has(ref)) this.#titles.set(ref, title());
  }

  title(framework: string, controlId: string): string | undefined {
    const ref = this.#refs.get(framework)?.get(controlId);
    return ref ? this.#titles.get(ref) : undefined;
  }
}

export interface MappingContext {
  catalog: RulesetCatalog;
  /** The dataset's spelling of framework names, by lower case (`cis-azure` -> `CIS-Azure`). */
  spelling: Map<string, string>;
  /** Controls the dataset's results already list each finding under, by finding id. */
  listedControls: ReadonlyMap<string, readonly ControlRef[]>;
  /** Provider of a finding (lower case), when it can be told. */
  providerOf: (f: Finding) => string | null;
  controls: ControlRegistry;
  /** Tier 2 answers by check piece: a scan repeats a handful of checks across many resources. */
  exactCache?: Map<string, readonly ControlRef[]>;
  /** Spelled names by the name as written, so the common case costs one lookup. */
  spelled?: Map<string, string>;
}

/** The ruleset controls whose `checks` list a piece, with the dataset's framework spelling (cached). */
function exactControls(ctx: MappingContext, piece: string): readonly ControlRef[] {
  const hits = ctx.catalog.controlsForCheck(piece);
  if (hits.length === 0) return hits;
  ctx.exactCache ??= new Map();
  let refs = ctx.exactCache.get(piece);
  if (refs === undefined) {
    refs = hits.map((control) => {
      const ref = ctx.controls.ref(spell(ctx, control.framework), control.control_id);
      if (control.title) {
        const title = control.title;
        ctx.controls.entitle(ref, () => title);
      }
      return ref;
    });
    ctx.exactCache.set(piece, refs);
  }
  return refs;
}

/** One alternation per framework and provider, so the pattern tier runs a handful of regexes per finding. */
export interface CompiledPatternRule {
  framework: string;
  provider: string | null;
  test: (text: string) => boolean;
}

export function compilePatternRules(rules: readonly PatternRule[]): CompiledPatternRule[] {
  return rules.map((rule) => {
    let test: (text: string) => boolean;
    try {
      const combined = new RegExp(rule.patterns.map((p) => `(?:${p.source})`).join('|'), 'i');
      test = (text) => combined.test(text);
    } catch {
      // Patterns that cannot share one expression (back-references) are run one by one.
      test = (text) => rule.patterns.some((p) => p.test(text));
    }
    return { framework: rule.framework, provider: rule.provider, test };
  });
}

/** The dataset's spelling of a framework name, registering a new one on first use. */
export function spell(ctx: MappingContext, name: string): string {
  ctx.spelled ??= new Map();
  const cached = ctx.spelled.get(name);
  if (cached !== undefined) return cached;
  const lower = name.toLowerCase();
  let known = ctx.spelling.get(lower);
  if (known === undefined) {
    known = name;
    ctx.spelling.set(lower, name);
  }
  ctx.spelled.set(name, known);
  return known;
}

/** Map one finding in place: its frameworks and `compliance_controls`. */
const scratch = {
  frameworks: new Set<string>(),
  controls: new Set<ControlRef>(),
  precise: new Set<string>(),
};

export function mapFinding(
  f: Finding,
  ctx: MappingContext,
  patternRules: readonly CompiledPatternRule[],
): void {
  // Scratch sets reused from finding to finding: a large scan maps a hundred thousand of them.
  const { frameworks, controls, precise } = scratch;
  frameworks.clear();
  controls.clear();
  precise.clear();
  for (const fw of f.compliance_frameworks) frameworks.add(spell(ctx, fw));
  const native = Array.isArray(f.compliance_controls) ? (f.compliance_controls as ControlRef[]) : [];
  for (const c of native) {
    const ref = ctx.controls.ref(spell(ctx, c.framework), c.control_id);
    frameworks.add(ref.framework);
    precise.add(ref.framework);
    controls.add(ref);
  }
  // Tier 2: exact checks.
  for (const piece of checkPieces(f)) {
    for (const ref of exactControls(ctx, piece)) {
      frameworks.add(ref.framework);
      precise.add(ref.framework);
      controls.add(ref);
    }
  }
  // Tiers 3 and 4: framework names only, for a finding nothing else placed.
  if (frameworks.size === 0) {
    const text = `${f.title} ${f.description}`;
    const provider = ctx.providerOf(f);
    for (const rule of patternRules) {
      // A provider's benchmark is not applied to another cloud's resource (the reference ran
      // every pattern against every finding, so an AWS bucket could fail CIS-AZURE).
      if (rule.provider && provider && rule.provider !== provider) continue;
      if (rule.test(text)) frameworks.add(spell(ctx, rule.framework));
    }
    if (frameworks.size === 0) {
      for (const { framework, pattern } of FALLBACK_FRAMEWORKS) {
        if (pattern.test(text)) frameworks.add(spell(ctx, framework));
      }
    }
  }
  // Every framework gets a control. One the dataset's results already list this finding under
  // counts as precise: the reference added a derived control beside it, counting one failure
  // twice and lowering the pass rate for nothing.
  for (const c of ctx.listedControls.get(f.id) ?? []) precise.add(spell(ctx, c.framework));
  const check = findingCheck(f);
  for (const fw of frameworks) {
    if (precise.has(fw)) continue;
    const ref = ctx.controls.ref(fw, check ? `${fw}/${check}` : `${fw}-aggregate`);
    ctx.controls.entitle(ref, () =>
      check ? `${fw}: findings of scanner check ${check}` : `${fw}: findings without a specific control`,
    );
    controls.add(ref);
  }
  f.compliance_frameworks = [...frameworks];
  f.compliance_controls = [...controls];
}
