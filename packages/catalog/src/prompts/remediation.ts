import type { Registry } from '@cloudg/core';
import { parseSeverity } from '../conventions/enums.js';
import type { Workspace } from '../workspace/workspace.js';
import { datasetArg, severityArg } from './arguments.js';
import { riskiestAssets } from './context/top-risks.js';
import { datasetPrompt, summaryUri } from './define.js';

export function registerRemediationPrompt(registry: Registry<Workspace>): void {
  datasetPrompt(registry, {
    name: 'remediation_plan',
    title: 'Remediation plan',
    description:
      'A phased remediation plan for the open findings at or above a severity (default HIGH), ordered by real risk.',
    sensitivity: 'confidential',
    arguments: [severityArg, datasetArg],
    build: (_ctx, dataset, args) => {
      // Checked before anything else, so a bad value fails with the valid list.
      const severity = parseSeverity(args.severity?.trim() || 'HIGH');
      return {
        task: [
          `Build a remediation plan for the open findings at ${severity} or above in the dataset the`,
          'context names.',
          '',
          `1. \`list_findings(min_severity='${severity}', limit=100)\` (follow next_cursor when there is more).`,
          `2. \`top_risks(top=20, min_severity='${severity}')\` to order the work by real risk.`,
          '3. `get_finding` for the remediation text; `blast_radius` on assets where a fix may disrupt.',
          '4. Group the fixes that share a root cause (same security group, role, policy or account setting).',
          '',
          'Deliver a phased plan (now, this sprint, next quarter) with owner hints from the tags. For each',
          'item give the finding ids, the affected assets, the fix, the risk it removes and the change risk.',
          'List accepted risks that could be suppressed (suppress_findings), with the reason.',
        ].join('\n'),
        context: {
          dataset: dataset.name,
          min_severity: severity,
          top_risks: riskiestAssets(dataset, 10, severity),
        },
        embed: [summaryUri(dataset)],
      };
    },
  });
}
