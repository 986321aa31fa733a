import type { JsonObject, PolicyPort, Principal, ToolContext } from '@cloudg/core';

/**
 * The privacy tools reach the policy only through core's `PolicyPort` and its optional
 * `introspection`. A policy without introspection (core's allow-all policy, a custom port) has
 * no transforms, vault or decision log to report, so each tool answers with that empty truth.
 */
export function policyOf<TApp>(ctx: ToolContext<TApp>): PolicyPort {
  return ctx.layer.policy;
}

/** `privacy_status` for a policy that cannot describe itself. */
export function bareStatus(policy: PolicyPort, principal: Principal, visibleTools: number): JsonObject {
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
