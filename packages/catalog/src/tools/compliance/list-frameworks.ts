import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { workspaceRulesets } from '../../compliance/workspace-rulesets.js';
import { parseEnum } from '../../conventions/enums.js';
import { PROVIDERS } from '../../model/vocabulary.js';
import type { Workspace } from '../../workspace/workspace.js';

/** `list_frameworks`: the frameworks of the rulesets, optionally for one provider. */
export function registerListFrameworks(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_frameworks',
    title: 'List compliance frameworks',
    description:
      'The compliance frameworks cloudg maps findings to, from its rulesets: per framework its versions, providers, number of distinct controls and the files defining it. Needs no dataset. With provider, frameworks of other clouds are left out; provider-neutral ones stay.',
    category: 'compliance',
    sensitivity: 'public',
    capabilities: [],
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    input: {
      provider: z.string().default('').describe('aws, azure or gcp.'),
    },
    handler: async (ctx, args) => {
      const provider = args.provider.trim()
        ? parseEnum('provider', args.provider, PROVIDERS).toLowerCase()
        : '';
      const catalog = await workspaceRulesets(ctx.app);
      const items = catalog.frameworks
        .filter((f) => !provider || f.providers.length === 0 || f.providers.includes(provider))
        .map((f) => ({ ...f, versions: [...f.versions], providers: [...f.providers], files: [...f.files] }));
      return { total: items.length, items };
    },
  });
}
