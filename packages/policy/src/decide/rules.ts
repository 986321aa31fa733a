/**
 * Roles and rules, compiled. A role is a rule whose `match.roles` starts with the role's name;
 * roles come first (in the order of the mapping), then `rules` in order (section 7.1).
 */
import type { Principal } from '@cloudg/core';
import type { PolicyConfig, RuleConfig } from '../schema/config.js';
import { type AccessLists, compileAccessLists } from './access-lists.js';
import { GlobList } from './glob.js';
import type { Primitive } from './primitive.js';

export interface CompiledRule {
  readonly name: string;
  readonly config: RuleConfig;
  readonly access: AccessLists;
  /** True when the rule only looks at the caller, so it applies with no primitive too. */
  readonly callerOnly: boolean;
  /** True when the rule looks at the principal id (decisions then depend on it). */
  readonly usesPrincipalId: boolean;
  matchesCaller(principal: Principal): boolean;
  matchesPrimitive(primitive: Primitive): boolean;
}

function compileRule(config: RuleConfig, name: string, role?: string): CompiledRule {
  const m = config.match;
  const roles = role === undefined ? m.roles : [role, ...m.roles];
  const anyRole = roles.includes('*');
  const roleSet = new Set(roles);
  const principals = new GlobList(m.principals);
  const names = new GlobList(m.names);
  const categories = new GlobList(m.categories);
  const tags = new Set(m.tags);
  const kinds = new Set<string>(m.kinds);
  const sensitivity = new Set<string>(m.sensitivity);
  const capabilities = new Set<string>(m.capabilities);
  const callerOnly =
    names.isEmpty && categories.isEmpty && tags.size === 0 && kinds.size === 0 && sensitivity.size === 0;
  return {
    name,
    config,
    access: compileAccessLists(config),
    callerOnly: callerOnly && capabilities.size === 0,
    usesPrincipalId: !principals.isEmpty,
    matchesCaller(principal) {
      if (roleSet.size > 0 && !anyRole && ![...principal.roles].some((r) => roleSet.has(r))) return false;
      return principals.isEmpty || principals.matches(principal.id);
    },
    matchesPrimitive(p) {
      if (!names.isEmpty && !names.matches(p.identity)) return false;
      if (!categories.isEmpty && !categories.matches(p.category)) return false;
      if (tags.size > 0 && ![...p.tags].some((t) => tags.has(t))) return false;
      if (kinds.size > 0 && !kinds.has(p.kind) && !(p.kind === 'resource_template' && kinds.has('resource')))
        return false;
      if (sensitivity.size > 0 && !sensitivity.has(p.sensitivity)) return false;
      if (capabilities.size > 0 && ![...p.capabilities].some((c) => capabilities.has(c))) return false;
      return true;
    },
  };
}

/** Every role and rule of a policy, in evaluation order. */
export function compileRules(config: PolicyConfig): CompiledRule[] {
  const out: CompiledRule[] = [];
  for (const [role, rule] of Object.entries(config.roles)) {
    out.push(compileRule(rule, rule.name || `role:${role}`, role));
  }
  config.rules.forEach((rule, index) => {
    out.push(compileRule(rule, rule.name || `rule[${index}]`));
  });
  return out;
}

/** The rules that apply to a caller and, when given, a primitive. */
export function matchingRules(
  rules: readonly CompiledRule[],
  principal: Principal,
  primitive: Primitive | undefined,
): CompiledRule[] {
  return rules.filter((rule) =>
    primitive === undefined
      ? rule.callerOnly && rule.matchesCaller(principal)
      : rule.matchesCaller(principal) && rule.matchesPrimitive(primitive),
  );
}
