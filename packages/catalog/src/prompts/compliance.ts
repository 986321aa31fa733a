import type { Registry } from '@cloudg/core';
import { datasetFrameworks, matchFrameworksPreferExact } from '../compliance/framework-match.js';
import { frameworkView } from '../compliance/framework-view.js';
import { compliancePosture, complianceUri, copyPosture } from '../compliance/posture.js';
import type { Workspace } from '../workspace/workspace.js';
import { datasetArg, frameworkArg } from './arguments.js';
import { datasetPrompt, isActive } from './define.js';

export function registerCompliancePrompt(registry: Registry<Workspace>): void {
  datasetPrompt(registry, {
    name: 'compliance_gap_analysis',
    title: 'Compliance gap analysis',
    description:
      'A gap analysis for one compliance framework: pass rate, failing controls by domain, the assets behind them and a remediation backlog.',
    sensitivity: 'confidential',
    arguments: [frameworkArg, datasetArg],
    build: (ctx, dataset, args) => {
      const given = args.framework?.trim() ?? '';
      // The framework resource's matching (an exact name, else a substring), narrowed to one name.
      const matches = given ? matchFrameworksPreferExact(datasetFrameworks(dataset), given) : [];
      const framework = matches.length === 1 ? matches[0] : undefined;
      const task = [
        'Run a compliance gap analysis for the framework the context names (`framework`, written',
        '<framework> below).',
        '',
        '1. `compliance_summary(framework=<framework>)`.',
        "2. `list_controls(framework=<framework>, status='FAIL')` and",
        "   `list_controls(framework=<framework>, source='ruleset')` for the whole control set.",
        '3. `control_status` on the failing controls with the most or the worst findings.',
        '4. `compliance_gaps(framework=<framework>)` for the assets behind the gaps.',
        '',
        'Deliver the pass rate and the failing controls grouped by domain, the assets responsible, a',
        'remediation backlog ordered by severity times effort, and evidence references (finding ids).',
      ].join('\n');
      if (framework === undefined) {
        // Nothing to focus on: show every framework's posture so the model can pick the right name.
        return {
          task,
          context: {
            dataset: dataset.name,
            framework: given,
            posture: compliancePosture(dataset, null).map(copyPosture),
          },
        };
      }
      const uri = complianceUri(framework);
      const served = isActive(ctx.app, dataset) && ctx.layer.registry.findTemplate(uri) !== undefined;
      if (served) return { task, context: { dataset: dataset.name, framework }, embed: [uri] };
      return {
        task,
        context: { dataset: dataset.name, framework, framework_detail: frameworkView(dataset, [framework]) },
      };
    },
  });
}
