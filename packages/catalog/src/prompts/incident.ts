import type { Registry } from '@cloudg/core';
import { findingBrief, findingUri } from '../conventions/briefs.js';
import { resolveFindingRef } from '../conventions/findings.js';
import type { Workspace } from '../workspace/workspace.js';
import { datasetArg, findingIdArg } from './arguments.js';
import { datasetPrompt, isActive } from './define.js';

export function registerIncidentPrompt(registry: Registry<Workspace>): void {
  datasetPrompt(registry, {
    name: 'incident_triage',
    title: 'Incident triage',
    description:
      'Triage one finding as a potential incident: exploitability, reachability, impact, containment, evidence and the permanent fix.',
    sensitivity: 'confidential',
    arguments: [findingIdArg, datasetArg],
    build: (ctx, dataset, args) => {
      const finding = resolveFindingRef(dataset, args.finding_id ?? '');
      const asset = dataset.indexes.assetOfFinding(finding);
      const target = asset?.id ?? finding.resource_arn ?? finding.resource_id;
      const uri = findingUri(finding.id);
      const task = [
        `Triage the finding in the context (${finding.severity}) as a potential incident. \`id\` is the`,
        'finding id and `target_ref` the affected asset (<target> below).',
        '',
        '1. `get_finding(finding_id=<id>)` for the evidence and the mapped controls.',
        '2. `get_asset(ref=<target>)` and `internet_exposure()`: can the affected asset be reached?',
        "3. `find_paths(source='internet', target=<target>)` and `blast_radius(ref=<target>)`.",
        '4. `lateral_movement_paths(start=<target>)`: where an attacker would go next.',
        '',
        'Deliver whether it is exploitable (likely, possible or unlikely) and why, the impact if it is',
        'exploited, immediate containment steps, the evidence to collect, the permanent fix, and a new',
        'severity when one is justified.',
      ].join('\n');
      const context = { dataset: dataset.name, target_ref: target };
      const served = isActive(ctx.app, dataset) && ctx.layer.registry.findTemplate(uri) !== undefined;
      if (served) return { task, context, embed: [uri] };
      const detail = {
        ...findingBrief(dataset, finding),
        description: finding.description,
        evidence: finding.evidence,
        remediation: finding.remediation,
      };
      return { task, context: { ...context, finding: detail } };
    },
  });
}
