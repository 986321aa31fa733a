import type {
  DecisionLogView,
  PolicyDetectors,
  PolicyPort,
  PolicyStatus,
  Principal,
  RevealResult,
  ToolContext,
} from '@cloudg/core';

/**
 * The privacy tools reach the policy only through core's `PolicyPort` and its optional
 * `introspection`. A policy without introspection (core's allow-all policy, a custom port) has
 * no transforms, vault or decision log to report, so each tool answers with that empty truth.
 */
export function policyOf<TApp>(ctx: ToolContext<TApp>): PolicyPort {
  return ctx.layer.policy;
}

/** `privacy_status` for a policy that cannot describe itself: the same shape, nothing in it. */
export function bareStatus(policy: PolicyPort, principal: Principal, visibleTools: number): PolicyStatus {
  return {
    policy: policy.name,
    description: null,
    loaded_from: null,
    extends: [],
    principal: principal.toJSON(),
    max_sensitivity: null,
    denied_capabilities: [],
    visible_tools: visibleTools,
    output_pipeline: [],
    pseudonymisation: { active: false, vault_scope: null, vault_entries: 0, by_entity: {}, key_source: null },
    audit_enabled: false,
    counters: {},
  };
}

/** `list_detectors` for a policy that cannot describe itself. */
export function bareDetectors(policy: PolicyPort): PolicyDetectors {
  return { policy: policy.name, detectors: [], key_rules: [] };
}

/** `privacy_audit_log` for a policy that keeps no decision log. */
export function bareDecisionLog(policy: PolicyPort): DecisionLogView {
  return { policy: policy.name, audit_enabled: false, scope: 'own', total: 0, entries: [] };
}

/** `reveal_token` for a policy without a vault: nothing to reveal. */
export function bareReveal(token: string): RevealResult {
  return { pseudonym: token, found: false, value: null, replaced: 0 };
}
