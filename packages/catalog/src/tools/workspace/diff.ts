import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import type { Workspace } from '../../workspace/workspace.js';
import { limitArg } from './args.js';
import { diffDatasetsOutput } from './output-schemas.js';

/** `diff_datasets`: what changed between two loaded datasets. */
export function registerDiffTool(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'diff_datasets',
    title: 'Diff datasets',
    description:
      'Assets added, removed and changed (matched on ARN, else id), edges added and removed, findings new, resolved or with a changed severity, and assets that became internet-exposed, between a base dataset and a target.',
    category: 'workspace',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: diffDatasetsOutput,
    input: {
      base: z.string().min(1).describe('Baseline dataset (before).'),
      target: z.string().default('').describe('Dataset to compare (after); empty = active.'),
      limit: limitArg(50, 500, 'Max items per section.'),
    },
    handler: (ctx, args) => ctx.app.diff(args.base.trim(), args.target.trim() || null, args.limit),
  });
}
