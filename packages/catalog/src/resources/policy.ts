import type { PolicyDescriptionView, PolicyPort, Registry } from '@cloudg/core';
import { policyOf } from '../tools/privacy/introspection.js';
import type { Workspace } from '../workspace/workspace.js';

/** What a policy that cannot describe itself (core's allow-all, a custom port) shows: its name. */
function bareDescription(policy: PolicyPort): PolicyDescriptionView {
  return { name: policy.name, description: null, loaded_from: null, available_profiles: [] };
}

/**
 * `cloudg://policy`: the serving policy's settings (profiles, access lists, rules, transforms,
 * rate limits, vault statistics, decision counters), never the vault key. Internal: it names
 * roles and rules, which a public reader has no need to see.
 */
export function registerPolicyResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: 'cloudg://policy',
    name: 'policy',
    title: 'Serving policy',
    description:
      "The serving policy's settings: where it was loaded from, access lists, roles and rules, transforms, rate limits, vault statistics (never the key), decision counters and the built-in profiles.",
    category: 'privacy',
    sensitivity: 'internal',
    mimeType: 'application/json',
    handler: (ctx) => {
      const policy = policyOf(ctx);
      return policy.introspection?.describe ? policy.introspection.describe() : bareDescription(policy);
    },
  });
}
