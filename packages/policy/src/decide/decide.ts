/**
 * The access decision (section 7.1): explicit rule denials, then the sensitivity ceiling, then
 * grants or the policy's own lists, then capabilities. Reasons name the rule or policy that
 * decided, never the caller's values.
 */
import { type Capability, type Sensitivity, sensitivityRank } from '@cloudg/core';
import type { AccessLists } from './access-lists.js';
import type { Primitive } from './primitive.js';
import type { CompiledRule } from './rules.js';

export interface Decision {
  allowed: boolean;
  /** Why the primitive was denied; empty when allowed. */
  reason: string;
}

export const ALLOWED: Decision = Object.freeze({ allowed: true, reason: '' });

const deny = (reason: string): Decision => Object.freeze({ allowed: false, reason });

export interface PolicyAccess {
  name: string;
  lists: AccessLists;
  /** The policy's deny_capabilities minus its own allow_capabilities. */
  deniedCapabilities: ReadonlySet<Capability>;
}

function ruleDenial(rule: CompiledRule, p: Primitive): Decision | undefined {
  const { access } = rule;
  if (access.deny[p.family].matches(p.identity)) return deny(`${p.family} denied by rule '${rule.name}'`);
  if (access.denyCategories.matches(p.category)) {
    return deny(`category '${p.category}' denied by rule '${rule.name}'`);
  }
  for (const capability of p.sortedCapabilities) {
    if (access.denyCapabilities.has(capability)) {
      return deny(`capability '${capability}' denied by rule '${rule.name}'`);
    }
  }
  return undefined;
}

/** The highest ceiling set by a matching rule, else the policy's. */
export function effectiveCeiling(policy: PolicyAccess, rules: readonly CompiledRule[]): Sensitivity | null {
  let ceiling: Sensitivity | null = null;
  for (const rule of rules) {
    const value = rule.access.maxSensitivity;
    if (value !== null && (ceiling === null || sensitivityRank(value) > sensitivityRank(ceiling)))
      ceiling = value;
  }
  return ceiling ?? policy.lists.maxSensitivity;
}

function granted(rules: readonly CompiledRule[], p: Primitive): boolean {
  return rules.some(
    (rule) =>
      rule.access.allow[p.family]?.matches(p.identity) === true ||
      rule.access.allowCategories?.matches(p.category) === true,
  );
}

function policyLists(policy: PolicyAccess, p: Primitive): Decision | undefined {
  const { lists, name } = policy;
  if (lists.deny[p.family].matches(p.identity)) return deny(`${p.family} denied by policy '${name}'`);
  if (lists.denyCategories.matches(p.category)) {
    return deny(`category '${p.category}' denied by policy '${name}'`);
  }
  const allow = lists.allow[p.family];
  if (allow !== undefined && !allow.matches(p.identity)) {
    return deny(`${p.family} not in the allow list of policy '${name}'`);
  }
  const categories = lists.allowCategories;
  if (categories !== undefined && !categories.matches(p.category)) {
    return deny(`category '${p.category}' not allowed by policy '${name}'`);
  }
  return undefined;
}

/** Decide whether the callers the rules were matched for may use the primitive. */
export function decide(policy: PolicyAccess, rules: readonly CompiledRule[], p: Primitive): Decision {
  for (const rule of rules) {
    const denial = ruleDenial(rule, p);
    if (denial) return denial;
  }
  const ceiling = effectiveCeiling(policy, rules);
  if (ceiling !== null && sensitivityRank(p.sensitivity) > sensitivityRank(ceiling)) {
    return deny(`sensitivity '${p.sensitivity}' exceeds the allowed '${ceiling}'`);
  }
  if (!granted(rules, p)) {
    const denial = policyLists(policy, p);
    if (denial) return denial;
  }
  for (const capability of p.sortedCapabilities) {
    if (!policy.deniedCapabilities.has(capability)) continue;
    if (!rules.some((rule) => rule.access.allowCapabilities.has(capability))) {
      return deny(`capability '${capability}' is denied by policy '${policy.name}'`);
    }
  }
  return ALLOWED;
}
