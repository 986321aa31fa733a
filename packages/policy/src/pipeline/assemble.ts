/**
 * Which transforms a call gets (sections 10.2 to 10.5), as normalised specs. Building them into
 * running transforms is @cloudg/privacy's job; this module only decides the list and options.
 */
import type { RuleConfig } from '../schema/config.js';
import type { TransformHintSet } from './hints.js';
import { canonicalType, deepMerge, type NormalizedSpec, normalizePolicySpec } from './specs.js';

export interface PolicyTransforms {
  transforms: readonly NormalizedSpec[];
  inputTransforms: readonly NormalizedSpec[];
  transformOptions: Record<string, Record<string, unknown>>;
  honorHints: boolean;
}

const PRESENTATION = new Set(['alias', 'substitute']);

/**
 * Move every `alias` or `substitute` step that precedes the last `redact` to just after it,
 * keeping their order: the redactor must see real values, and an alias applied afterwards
 * still labels the pseudonym of the value it names.
 */
export function moveAliasesAfterRedact(specs: readonly NormalizedSpec[]): NormalizedSpec[] {
  let last = -1;
  specs.forEach((s, i) => {
    if (s.type === 'redact') last = i;
  });
  if (last < 0) return [...specs];
  const moved = specs.slice(0, last).filter((s) => PRESENTATION.has(s.type));
  if (moved.length === 0) return [...specs];
  const before = specs.slice(0, last).filter((s) => !PRESENTATION.has(s.type));
  return [...before, specs[last] as NormalizedSpec, ...moved, ...specs.slice(last + 1)];
}

/** Options for one spec: its own, then overrides under its type (any alias of it), then under its id. */
function withOptions(
  spec: NormalizedSpec,
  overrides: Record<string, Record<string, unknown>>,
): NormalizedSpec {
  let options = spec.options;
  for (const [key, value] of Object.entries(overrides)) {
    if (canonicalType(key) === spec.type) options = deepMerge(options, value);
  }
  if (spec.id !== spec.type) {
    const byId = overrides[spec.id];
    if (byId) options = deepMerge(options, byId);
  }
  return options === spec.options ? spec : { ...spec, options };
}

function applyOutputHints(
  specs: NormalizedSpec[],
  hints: TransformHintSet,
  honor: boolean,
): NormalizedSpec[] {
  let out = specs;
  if (honor) {
    if (hints.skipAll) out = [];
    else if (hints.skip.size > 0) out = out.filter((s) => !hints.skip.has(s.type) && !hints.skip.has(s.id));
    if (!hints.pseudonymize) {
      out = out.map((s) =>
        s.type === 'redact' ? { ...s, options: { ...s.options, allow_pseudonymize: false } } : s,
      );
    }
    const project = hints.project;
    if (project) {
      out = out.map((s) => (s.type === 'project' ? { ...s, options: deepMerge(s.options, project) } : s));
    }
  }
  return hints.extra.length > 0 ? [...out, ...hints.extra] : out;
}

/** Steps 1 to 5 of section 10.2 for one call's matching rules. */
export function assembleOutput(
  policy: PolicyTransforms,
  rules: readonly RuleConfig[],
  hints: TransformHintSet,
): { specs: NormalizedSpec[]; honorHints: boolean } {
  let specs: NormalizedSpec[] = [...policy.transforms];
  let options: Record<string, Record<string, unknown>> = policy.transformOptions;
  let honor = policy.honorHints;
  for (const rule of rules) {
    const extra = rule.transforms.map(normalizePolicySpec);
    if (rule.transforms_mode === 'replace') specs = extra;
    else if (rule.transforms_mode === 'prepend') specs = [...extra, ...specs];
    else specs = [...specs, ...extra];
    options = deepMerge(options, rule.transform_options) as Record<string, Record<string, unknown>>;
    if (rule.honor_hints !== null) honor = rule.honor_hints;
  }
  specs = moveAliasesAfterRedact(specs).map((s) => withOptions(s, options));
  return { specs: applyOutputHints(specs, hints, honor), honorHints: honor };
}

/** Section 10.3: the policy's and the rules' input transforms, hints, and the automatic depseudonymiser. */
export function assembleInput(
  policy: PolicyTransforms,
  rules: readonly RuleConfig[],
  hints: TransformHintSet,
  output: { honorHints: boolean; needsDepseudonymizer: boolean },
): NormalizedSpec[] {
  let specs: NormalizedSpec[] = [...policy.inputTransforms];
  for (const rule of rules) specs.push(...rule.input_transforms.map(normalizePolicySpec));
  const honor = output.honorHints;
  if (honor) {
    specs = specs.filter((s) => !hints.skipInput.has(s.type) && !hints.skipInput.has(s.id));
    if (!hints.inputGuard) specs = specs.filter((s) => s.type !== 'guard_secrets');
  }
  const optedOut = honor && (!hints.depseudonymize || hints.skipInput.has('depseudonymize'));
  if (!optedOut && output.needsDepseudonymizer && !specs.some((s) => s.type === 'depseudonymize')) {
    specs.push({ type: 'depseudonymize', id: 'depseudonymize', options: {} });
  }
  return specs;
}

/**
 * The generic pipeline (10.5): the policy's transforms with the policy's options and those of
 * caller-only rules. The alias reordering applies here too, so previews match tool results.
 */
export function assembleGeneric(
  policy: PolicyTransforms,
  callerRules: readonly RuleConfig[],
): NormalizedSpec[] {
  let options: Record<string, Record<string, unknown>> = policy.transformOptions;
  for (const rule of callerRules) {
    options = deepMerge(options, rule.transform_options) as Record<string, Record<string, unknown>>;
  }
  return moveAliasesAfterRedact(policy.transforms).map((s) => withOptions(s, options));
}
