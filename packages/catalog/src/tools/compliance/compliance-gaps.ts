import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { complianceGaps, copyGapRow } from '../../compliance/gaps.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { parseSeverity } from '../../conventions/enums.js';
import { paginate } from '../../conventions/paging.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';
import { optionalFrameworkArg } from './args.js';

/** `compliance_gaps`: the assets that fail compliance, worst first. */
export function registerComplianceGaps(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'compliance_gaps',
    title: 'Compliance gaps',
    description:
      'Assets that fail compliance, worst first: per asset the matching frameworks, the failing controls (framework:control_id, first 20), how many open findings are gaps and the worst of them. A finding is a gap when it is open, at or above min_severity, and tagged with a matching framework or listed by a failing result of one. Findings on resources not in the inventory get an unmapped row.',
    category: 'compliance',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    input: {
      framework: optionalFrameworkArg(),
      min_severity: z.string().default('').describe('Only findings at or above this severity count as gaps.'),
      limit: limitArg(),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const floor = args.min_severity.trim() ? parseSeverity(args.min_severity) : null;
      const dataset = resolveDataset(ctx.app, args.dataset);
      const { limit, cursor, dataset: _name, ...query } = args;
      const page = paginate(complianceGaps(dataset, args.framework, floor), {
        dataset,
        query,
        limit,
        cursor,
      });
      // The rows are cached per dataset version: the page gets copies.
      return { dataset: dataset.name, framework: args.framework, ...page, items: page.items.map(copyGapRow) };
    },
  });
}
