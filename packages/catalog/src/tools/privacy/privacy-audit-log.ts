import type { Registry } from '@cloudg/core';
import * as z from 'zod';
import { parseEnum } from '../../conventions/enums.js';
import type { Workspace } from '../../workspace/workspace.js';
import { bareDecisionLog, policyOf } from './introspection.js';

/** Decisions the policy records (section 15.1 of the privacy reference). */
export const DECISIONS = ['allowed', 'denied', 'rate_limited', 'rejected', 'not_found'] as const;

export function registerPrivacyAuditLog(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'privacy_audit_log',
    title: 'Privacy audit log',
    description:
      'Recent access decisions kept in memory by the policy: denials, rate-limit hits, refusals and hidden ' +
      'calls always, every call when the policy audits. Arguments appear as keyed hashes, never values. ' +
      'Admins and privacy admins see every principal; anyone else sees their own entries.',
    category: 'privacy',
    sensitivity: 'restricted',
    capabilities: ['read_state'],
    input: {
      limit: z.number().int().min(1).max(1000).default(50).describe('Most recent entries'),
      decision: z
        .string()
        .nullable()
        .default(null)
        .describe('Filter: allowed, denied, rate_limited, rejected or not_found'),
    },
    handler: (ctx, args) => {
      const policy = policyOf(ctx);
      const decision = args.decision
        ? parseEnum(
            'decision',
            args.decision,
            DECISIONS.map((d) => d.toUpperCase()),
          ).toLowerCase()
        : undefined;
      if (!policy.introspection) return bareDecisionLog(policy);
      return policy.introspection.decisionLog(ctx.principal, {
        limit: args.limit,
        ...(decision ? { decision } : {}),
      });
    },
  });
}
