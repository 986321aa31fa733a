import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { assetUri, findingUri } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveFindingRef } from '../../conventions/findings.js';
import { findingDetail } from '../../findings/detail.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/** `get_finding`: one finding with evidence, remediation, controls and its asset. */
export function registerGetFinding(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'get_finding',
    title: 'Get finding',
    description:
      "One finding in full: its brief plus description, evidence, remediation, the scanner's source_finding_id, the compliance controls that list it, why it is suppressed (reason, who, when) and the affected asset's brief. finding_id is the finding's id, or a scanner's source_finding_id that exactly one finding has.",
    category: 'findings',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      finding_id: z.string().min(1).describe("Finding id (or the scanner's source_finding_id)."),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const finding = resolveFindingRef(dataset, args.finding_id);
      const detail = findingDetail(dataset, finding);
      if (detail.asset) {
        ctx.link(assetUri(detail.asset.id), detail.asset.name, {
          title: 'Affected asset',
          mimeType: 'application/json',
        });
      }
      ctx.link(findingUri(finding.id), finding.title, { mimeType: 'application/json' });
      return detail;
    },
  });
}
