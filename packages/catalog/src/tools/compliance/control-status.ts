import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { controlStatus } from '../../compliance/control-status.js';
import { workspaceRulesets } from '../../compliance/workspace-rulesets.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg, limitArg } from '../workspace/args.js';
import { frameworkArg } from './args.js';

/** `control_status`: one control, its definition, its status in the dataset and what fails it. */
export function registerControlStatus(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'control_status',
    title: 'Control status',
    description:
      "One control: how the rulesets define it, its status in the dataset (NOT_EVALUATED when no result names it), the dataset's results for it, the open findings that fail it and the assets they affect. A dataset result also matches when its id ends with control_id after a separator (CIS-AWS/5.2 for 5.2).",
    category: 'compliance',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    input: {
      framework: frameworkArg(),
      control_id: z
        .string()
        .min(1)
        .describe('Control id. A dataset result also matches when its id ends with this value.'),
      limit: limitArg(25, 200, 'Cap on findings and affected_assets.'),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const catalog = await workspaceRulesets(ctx.app);
      return controlStatus(dataset, catalog, args.framework, args.control_id, args.limit);
    },
  });
}
