import type { Registry } from '@cloudg/core';
import * as z from 'zod';
import type { Workspace } from '../../workspace/workspace.js';
import { bareDetectors, policyOf } from './introspection.js';

export function registerListDetectors(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_detectors',
    title: 'List detectors',
    description:
      "The sensitive-data detectors (content patterns) and key rules (field-name patterns), each with the strategy the caller's policy applies to it (redact, mask, hash, pseudonymize, generalize, drop or keep), optionally for one category.",
    category: 'privacy',
    sensitivity: 'public',
    capabilities: ['read_state'],
    input: {
      category: z
        .string()
        .nullable()
        .default(null)
        .describe('Only this category: secret, credential, identifier, network, pii, temporal, free_text'),
    },
    handler: (ctx, args) => {
      const policy = policyOf(ctx);
      const category = args.category?.trim().toLowerCase() || undefined;
      if (!policy.introspection) return bareDetectors(policy);
      return policy.introspection.listDetectors(ctx.principal, category);
    },
  });
}
