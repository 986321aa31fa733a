/**
 * Quick start: one layer, one tool, two callers under the soc-analyst profile. The README quotes
 * the region `quickstart` (`pnpm readme-examples --update` copies it); test/examples.test.ts runs
 * this file and checks what the comments say.
 */
// #region quickstart
import { Layer, Principal, Registry } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import * as z from 'zod';
// #endregion quickstart

export async function quickstart() {
  // #region quickstart
  const received: string[] = [];
  const registry = new Registry();
  registry.tool({
    name: 'get_account',
    category: 'inventory',
    input: { id: z.string() },
    handler: (_ctx, args) => {
      received.push(args.id);
      return { account_id: args.id, owner: 'alice@example.com' };
    },
  });

  const policy = Policy.load('soc-analyst'); // or a file, inline JSON, an object...
  const layer = new Layer({ policy, registry });

  const ann = new Principal({ id: 'ann', roles: ['analyst'] });
  const lee = new Principal({ id: 'lee', roles: ['lead'] });

  const seenByAnn = await layer.callTool('get_account', { id: '111111111111' }, { principal: ann });
  // seenByAnn.structured -> { account_id: 'prod-payments', owner: 'user-…@d-….example' }
  const passedBack = await layer.callTool('get_account', { id: 'prod-payments' }, { principal: lee });
  // received -> ['111111111111', '111111111111']: the alias is reversed before the handler runs
  // passedBack.structured -> { account_id: 'prod-payments', owner: 'alice@example.com' }
  // #endregion quickstart

  const decision = policy.decide(registry.tools.get('get_account')!, ann);
  // { allowed: true, reason: '' }
  return {
    seenByAnn: seenByAnn.structured,
    passedBack: passedBack.structured,
    received,
    decision,
    log: policy.auditLog,
  };
}
