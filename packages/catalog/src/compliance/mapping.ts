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

export interface MappingContext {
  catalog: RulesetCatalog;
  /** The dataset's spelling of framework names, by lower case (`cis-azure` -> `CIS-Azure`). */
  spelling: Map<string, string>;
  /** Controls the dataset's results already list each finding under, by finding id. */
  listedControls: ReadonlyMap<string, readonly ControlRef[]>;
  /** Provider of a finding (lower case), when it can be told. */
  providerOf: (f: Finding) => string | null;
  /** Titles for the controls mapping creates, by `framework\0control_id`. */
  titles: Map<string, string>;
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

function controlKey(framework: string, controlId: string): string {
  return `${framework}\u0000${controlId}`;
}

/** The dataset's spelling of a framework name, registering a new one on first use. */
export function spell(ctx: MappingContext, name: string): string {
  const lower = name.toLowerCase();
  const known = ctx.spelling.get(lower);
  if (known) return known;
  ctx.spelling.set(lower, name);
  return name;
}

/** Map one finding in place: its frameworks and `compliance_controls`. */
export function mapFinding(
  f: Finding,
  ctx: MappingContext,
  patternRules: readonly CompiledPatternRule[],
): void {
  const frameworks = new Set(f.compliance_frameworks.map((fw) => spell(ctx, fw)));
  const native = Array.isArray(f.compliance_controls) ? (f.compliance_controls as ControlRef[]) : [];
  const controls = new Map<string, ControlRef>();
  const add = (framework: string, controlId: string) => {
    controls.set(controlKey(framework, controlId), { framework, control_id: controlId });
  };
  for (const c of native) {
    const fw = spell(ctx, c.framework);
    frameworks.add(fw);
    add(fw, c.control_id);
  }
  // Tier 2: exact checks.
  for (const piece of checkPieces(f)) {
    for (const control of ctx.catalog.controlsForCheck(piece)) {
      const fw = spell(ctx, control.framework);
      frameworks.add(fw);
      add(fw, control.control_id);
      if (control.title) ctx.titles.set(controlKey(fw, control.control_id), control.title);
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
  const listed = new Set((ctx.listedControls.get(f.id) ?? []).map((c) => c.framework.toLowerCase()));
  const precise = new Set([...controls.values()].map((c) => c.framework));
  const check = findingCheck(f);
  for (const fw of frameworks) {
    if (precise.has(fw) || listed.has(fw.toLowerCase())) continue;
    const controlId = check ? `${fw}/${check}` : `${fw}-aggregate`;
    add(fw, controlId);
    ctx.titles.set(
      controlKey(fw, controlId),
      check ? `${fw}: findings of scanner check ${check}` : `${fw}: findings without a specific control`,
    );
  }
  f.compliance_frameworks = [...frameworks];
  f.compliance_controls = [...controls.values()];
}
