import type { Registry } from '@cloudg/core';
import * as z from 'zod';
import type { Workspace } from '../../workspace/workspace.js';
import { bareReveal, policyOf } from './introspection.js';

/**
 * The caller must see the pseudonym as sent and get the real value back untouched: no input
 * guard or depseudonymiser on the way in, no pseudonyms, aliases or substitutions on the way out.
 */
export const REVEAL_TRANSFORM_HINTS = {
  pseudonymize: false,
  skip: ['substitute', 'alias'],
  input_guard: false,
  depseudonymize: false,
};

export function registerRevealToken(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'reveal_token',
    title: 'Reveal token',
    description:
      'Reverse pseudonymisation: the real value behind a pseudonym, or a text with every pseudonym (and ' +
      "alias of the caller's output pipeline) in it replaced. Needs the reveal capability; every call is " +
      'audited with a hash of the token, never the value.',
    category: 'privacy',
    sensitivity: 'restricted',
    capabilities: ['reveal'],
    transformHints: REVEAL_TRANSFORM_HINTS,
    input: {
      token: z
        .string()
        .min(1)
        .max(20_000)
        .describe('A pseudonym (e.g. an account ID, ARN or IP from a result) or text containing pseudonyms'),
    },
    handler: (ctx, args) => {
      const policy = policyOf(ctx);
      if (!policy.introspection) return bareReveal(args.token);
      return policy.introspection.reveal(args.token, ctx.principal);
    },
  });
}
