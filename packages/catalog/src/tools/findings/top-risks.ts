import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { parseSeverity } from '../../conventions/enums.js';
import { topRisks } from '../../findings/top-risks.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { topRisksOutput } from './output-schemas.js';

/** `top_risks`: the assets to fix first, with the factors of each score. */
export function registerTopRisks(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'top_risks',
    title: 'Top risks',
    description:
      'The assets to fix first. Each asset with an open finding is scored max_finding_risk x exposure (1.5 when flagged exposed or reachable from the internet over network-flow edges) x blast (1 + min(1, log10(1 + transitive dependents to depth 6) / 2)) x volume (1 + min(0.5, 0.05 x (open findings - 1))); items carry the asset brief, the score, its components and the three riskiest findings. Findings on no known asset are ignored.',
    category: 'findings',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    outputSchema: topRisksOutput,
    input: {
      top: z.number().int().min(1).max(100).default(10).describe('Number of assets returned.'),
      min_severity: z.string().default('').describe('Only consider open findings at or above this severity.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const minSeverity = args.min_severity.trim() ? parseSeverity(args.min_severity) : null;
      const dataset = resolveDataset(ctx.app, args.dataset);
      return topRisks(dataset, { top: args.top, minSeverity, signal: ctx.signal });
    },
  });
}
