/** `privacy_status`: the policy as it applies to one caller (section 14). */
import type { PolicyStatus, Principal } from '@cloudg/core';
import type { DecisionCounters } from '../audit/decision-log.js';
import type { IntrospectionHost } from './host.js';
import { describeSteps, pseudonymises } from './steps.js';

const COUNTER_ORDER: readonly (keyof DecisionCounters)[] = [
  'allowed',
  'denied',
  'rate_limited',
  'rejected',
  'hidden',
  'reveal',
];

/** Only the decisions that happened: a fresh policy has none. */
export function nonZeroCounters(counters: Readonly<DecisionCounters>): PolicyStatus['counters'] {
  const out: PolicyStatus['counters'] = {};
  for (const key of COUNTER_ORDER) if (counters[key] > 0) out[key] = counters[key];
  return out;
}

export function sortedCounts(counts: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function privacyStatus(
  host: IntrospectionHost,
  principal: Principal,
  facts: { visibleTools: number },
): PolicyStatus {
  const generic = host.genericPipeline(principal);
  const stats = host.vault.stats?.();
  return {
    policy: host.name,
    description: host.description,
    loaded_from: host.loadedFrom,
    extends: [...host.extendsChain],
    principal: { id: principal.id, roles: principal.sortedRoles() },
    max_sensitivity: host.maxSensitivityFor(principal),
    denied_capabilities: host.deniedCapabilitiesFor(principal),
    visible_tools: facts.visibleTools,
    output_pipeline: describeSteps(generic),
    pseudonymisation: {
      active: pseudonymises(generic),
      vault_scope: stats?.scope ?? host.config.vault.scope,
      vault_entries: stats?.entries ?? 0,
      by_entity: sortedCounts(stats?.entities ?? {}),
      key_source: stats?.key_source ?? null,
    },
    audit_enabled: host.config.audit,
    counters: nonZeroCounters(host.counters),
  };
}
