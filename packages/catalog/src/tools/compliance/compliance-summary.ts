import type { Registry } from '@cloudg/core';
import { compliancePosture, copyPosture, NO_COMPLIANCE_HINT } from '../../compliance/posture.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { optionalFrameworkArg } from './args.js';
import { complianceSummaryOutput } from './output-schemas.js';

/** Framework resources a summary links at most. */
const MAX_LINKS = 5;

/** `compliance_summary`: posture per framework from compliance results and finding tags. */
export function registerComplianceSummary(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'compliance_summary',
    title: 'Compliance summary',
    description:
      'Compliance posture per framework: controls evaluated, failing, passing and other, the pass rate, open findings by severity and the assets they affect. Counts come from the compliance results and the framework tags on findings together; suppressed findings are left out. Frameworks with the most open findings come first.',
    category: 'compliance',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    outputSchema: complianceSummaryOutput,
    input: {
      framework: optionalFrameworkArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const frameworks = compliancePosture(dataset, args.framework).map(copyPosture);
      for (const row of frameworks.slice(0, MAX_LINKS)) {
        ctx.link(row.uri, `${row.framework} compliance`, { mimeType: 'application/json' });
      }
      const result: Record<string, unknown> = { dataset: dataset.name, frameworks };
      if (frameworks.length === 0) result.hint = NO_COMPLIANCE_HINT;
      return result;
    },
  });
}
