import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { FINDING_GROUPS, summariseFindings } from '../../findings/summary.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/** `findings_summary`: finding counts grouped by one dimension, each group split by severity. */
export function registerFindingsSummary(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'findings_summary',
    title: 'Findings summary',
    description:
      'Count findings by severity, source tool, compliance framework, asset type, account or asset. Each group is {total, <SEVERITY>: n...}. A finding counts once in each of its frameworks ((none) without one); findings on no known asset count as unmapped. total is the number of findings counted, suppressed the dataset-wide suppressed count.',
    category: 'findings',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    input: {
      group_by: z
        .enum(FINDING_GROUPS)
        .default('severity')
        .describe(
          'Grouping dimension. asset_type, account and asset use the matched asset; unmatched findings go to unmapped.',
        ),
      include_suppressed: z.boolean().default(false).describe('Count suppressed findings too.'),
      top: z.number().int().min(1).max(200).default(25).describe('Maximum number of groups returned.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) =>
      summariseFindings(resolveDataset(ctx.app, args.dataset), {
        groupBy: args.group_by,
        includeSuppressed: args.include_suppressed,
        top: args.top,
      }),
  });
}
