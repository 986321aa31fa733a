import type { Registry } from '@cloudg/core';
import { bareDetectors, policyOf } from '../tools/privacy/introspection.js';
import type { Workspace } from '../workspace/workspace.js';

/** `cloudg://privacy/detectors`: the list_detectors table for the caller, every category. */
export function registerPrivacyResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: 'cloudg://privacy/detectors',
    name: 'privacy-detectors',
    title: 'Privacy detectors',
    description:
      "The sensitive-data detectors and key rules with the strategy the caller's policy applies to each (list_detectors without a category).",
    category: 'privacy',
    sensitivity: 'public',
    mimeType: 'application/json',
    handler: (ctx) => {
      const policy = policyOf(ctx);
      return policy.introspection ? policy.introspection.listDetectors(ctx.principal) : bareDetectors(policy);
    },
  });
}
