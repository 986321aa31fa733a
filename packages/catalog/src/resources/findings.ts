import type { Registry } from '@cloudg/core';
import { completeFindingId, completeSeverity } from '../completions/findings.js';
import { findingBrief } from '../conventions/briefs.js';
import { normaliseEnumValue } from '../conventions/enums.js';
import { resolveFindingRef } from '../conventions/findings.js';
import { severityBreakdown } from '../dataset/summary.js';
import { largestFirstInOrder } from '../findings/counts.js';
import { findingView } from '../findings/detail.js';
import { queryFindings } from '../findings/query.js';
import { FINDINGS_SUMMARY_URI } from '../findings/triage-cache.js';
import { isSeverity, SEVERITIES, type Severity } from '../model/severity.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';
import type { Workspace } from '../workspace/workspace.js';

/** Open findings `cloudg://findings/severity/{severity}` lists at most. */
export const SEVERITY_RESOURCE_MAX = 200;

function parseSeverityVariable(value: string): Severity {
  const word = normaliseEnumValue(value);
  if (isSeverity(word)) return word;
  // A read error, like every resource failure; the message never repeats the value.
  throw new ReferenceNotFoundError(`Unknown severity; use one of ${SEVERITIES.join(', ')}`, {
    data: { value, valid: [...SEVERITIES] },
  });
}

/**
 * `cloudg://findings/summary`, `cloudg://findings/{finding_id}` and
 * `cloudg://findings/severity/{severity}`, over the active dataset. The `cloudg://findings/<id>`
 * links of finding briefs resolve here.
 */
export function registerFindingResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: FINDINGS_SUMMARY_URI,
    name: 'findings-summary',
    title: 'Findings summary',
    description:
      'Open and suppressed finding counts of the active dataset, open findings per severity (severity_breakdown) and per source tool (by_tool).',
    category: 'findings',
    sensitivity: 'internal',
    mimeType: 'application/json',
    handler: (ctx) => {
      const dataset = ctx.app.get();
      const open = dataset.findings.filter((f) => !f.is_suppressed);
      return {
        dataset: dataset.name,
        open_findings: open.length,
        suppressed: dataset.findings.length - open.length,
        severity_breakdown: severityBreakdown(open.map((f) => f.severity)),
        by_tool: largestFirstInOrder(open.map((f) => f.source_tool)),
      };
    },
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://findings/{finding_id}',
    name: 'finding',
    title: 'Finding',
    description:
      "One finding of the active dataset: its brief plus description, evidence and remediation (get_finding adds controls, the suppression and the asset). finding_id is the id, or a scanner's source_finding_id that one finding has.",
    category: 'findings',
    sensitivity: 'confidential',
    mimeType: 'application/json',
    completions: { finding_id: completeFindingId },
    handler: (ctx, vars) => {
      const dataset = ctx.app.get();
      return findingView(dataset, resolveFindingRef(dataset, vars.finding_id ?? ''));
    },
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://findings/severity/{severity}',
    name: 'findings-by-severity',
    title: 'Findings of one severity',
    description: `The first ${SEVERITY_RESOURCE_MAX} open findings of one severity in the active dataset, highest risk first, with total and truncated.`,
    category: 'findings',
    sensitivity: 'confidential',
    mimeType: 'application/json',
    completions: { severity: completeSeverity },
    handler: (ctx, vars) => {
      const severity = parseSeverityVariable(vars.severity ?? '');
      const dataset = ctx.app.get();
      const { items: matched } = queryFindings(dataset, { severities: [severity] }, 'risk');
      const shown = matched.slice(0, SEVERITY_RESOURCE_MAX);
      return {
        dataset: dataset.name,
        severity,
        total: matched.length,
        truncated: matched.length > shown.length,
        findings: shown.map((f) => findingBrief(dataset, f)),
      };
    },
  });
}
