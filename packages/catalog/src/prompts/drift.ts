import { PromptResult, type Registry } from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';
import { baseArg, targetArg } from './arguments.js';
import { contextMessage, taskMessage } from './messages.js';

/** Items per diff section the context carries; the model pages for more with diff_datasets. */
const DIFF_ITEMS = 25;

export function registerDriftPrompt(registry: Registry<Workspace>): void {
  registry.prompt({
    name: 'drift_review',
    title: 'Drift review',
    description:
      'Review what changed between two datasets (for example a snapshot and a fresh collection): new exposure, removed controls, new trust, findings introduced or resolved.',
    category: 'prompts',
    sensitivity: 'confidential',
    tags: ['workflow'],
    arguments: [baseArg, targetArg],
    handler: (ctx, args) => {
      // Two datasets are needed, so an empty workspace is an error here, not a hint.
      const diff = ctx.app.diff(args.base?.trim() ?? '', args.target?.trim() || null, DIFF_ITEMS);
      const task = [
        'Review what changed between the datasets `base` (before) and `target` (after) the context',
        'names. The diff is included: counts and the first items of each section.',
        '',
        'Call `diff_datasets(base=<base>, target=<target>, limit=200)` for more, and `get_asset` or',
        '`findings_for_asset` on anything suspicious. Report new or newly exposed assets, removed controls',
        '(security groups, WAF, logging), new trust edges, findings introduced and resolved, and whether',
        'each change looks intended or like drift.',
      ].join('\n');
      return new PromptResult([taskMessage(task), contextMessage({ ...diff })], 'Drift review');
    },
  });
}
