import { InvalidArgumentsError, type Registry } from '@cloudg/core';
import { z } from 'zod';
import { controlRows } from '../../compliance/control-rows.js';
import { datasetFrameworks, matchFrameworks } from '../../compliance/framework-match.js';
import { NO_COMPLIANCE_HINT } from '../../compliance/posture.js';
import type { RulesetCatalog } from '../../compliance/ruleset-catalog.js';
import { workspaceRulesets } from '../../compliance/workspace-rulesets.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';
import { frameworkArg } from './args.js';

export const CONTROL_STATUSES = ['', 'PASS', 'FAIL', 'NOT_APPLICABLE', 'MANUAL'] as const;
export const CONTROL_SOURCES = ['dataset', 'ruleset'] as const;

function unknownRulesetFramework(value: string, catalog: RulesetCatalog): InvalidArgumentsError {
  const known = catalog.frameworkNames;
  return new InvalidArgumentsError(`No ruleset framework matches the name. Known: ${known.join(', ')}`, {
    data: { value, known },
  });
}

/** Every control the matching ruleset frameworks define, in framework then file order. */
function rulesetControls(catalog: RulesetCatalog, frameworks: readonly string[]) {
  return frameworks.flatMap((fw) =>
    catalog.controlsOf(fw).map((c) => ({
      framework: fw,
      control_id: c.control_id,
      title: c.title,
      severity: c.severity,
      checks: c.checks.length,
    })),
  );
}

/** `list_controls`: the controls of a framework, as evaluated for a dataset or as a ruleset defines them. */
export function registerListControls(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_controls',
    title: 'List controls',
    description:
      "Controls of the matching frameworks. source 'dataset' (default) lists the dataset's compliance results, worst first, with the number of findings each lists, how many are open and the worst open severity. source 'ruleset' lists every control the rulesets define for the framework, with its severity and how many scanner checks map to it; that listing needs no dataset.",
    category: 'compliance',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    input: {
      framework: frameworkArg(),
      status: z
        .enum(CONTROL_STATUSES)
        .default('')
        .describe('Only controls with this status (dataset source only).'),
      source: z
        .enum(CONTROL_SOURCES)
        .default('dataset')
        .describe(
          'dataset = controls evaluated for this dataset; ruleset = every control the framework defines.',
        ),
      limit: limitArg(),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const { limit, cursor, dataset: datasetName, ...rest } = args;
      if (args.source === 'ruleset') {
        const catalog = await workspaceRulesets(ctx.app);
        const frameworks = matchFrameworks(catalog.frameworkNames, args.framework);
        if (frameworks.length === 0) throw unknownRulesetFramework(args.framework, catalog);
        // The status filter does not apply to definitions, so it does not tie the cursor either.
        const query = { framework: args.framework, source: args.source };
        const page = paginate(rulesetControls(catalog, frameworks), { dataset: null, query, limit, cursor });
        return { source: 'ruleset', frameworks, ...page };
      }
      const dataset = resolveDataset(ctx.app, datasetName);
      const frameworks = new Set(matchFrameworks(datasetFrameworks(dataset), args.framework));
      const rows = controlRows(dataset, frameworks, args.status);
      const page = paginate(rows, { dataset, query: rest, limit, cursor });
      const result: Record<string, unknown> = { dataset: dataset.name, source: 'dataset', ...page };
      if (frameworks.size === 0) result.hint = NO_COMPLIANCE_HINT;
      return result;
    },
  });
}
