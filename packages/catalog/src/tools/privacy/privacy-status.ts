import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { bareStatus, policyOf } from './introspection.js';

export function registerPrivacyStatus(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'privacy_status',
    title: 'Privacy status',
    description:
      'The active privacy policy as it applies to the caller: name, description, where it was loaded ' +
      'from and what it extends, the caller and roles, the sensitivity ceiling, denied capabilities, how ' +
      'many tools are visible, each output transform, pseudonymisation and vault statistics, whether ' +
      'auditing is on and the decision counters.',
    category: 'privacy',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    handler: (ctx) => {
      const policy = policyOf(ctx);
      const visibleTools = ctx.layer.listTools(ctx.principal).length;
      if (!policy.introspection) return bareStatus(policy, ctx.principal, visibleTools);
      return policy.introspection.status(ctx.principal, { visibleTools });
    },
  });
}
