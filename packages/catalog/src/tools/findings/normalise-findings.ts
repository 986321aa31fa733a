import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { normaliseDataset } from '../../findings/normalise-dataset.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/**
 * `normalise_findings`: deduplicate a dataset's findings within and across scanners, rescore them
 * by CVSS and map them to compliance controls with the configured rulesets, merging the fresh
 * compliance results into the existing ones. Suppressions survive (the first copy of a duplicate
 * keeps its id). Running it twice changes nothing the second time.
 */
export function registerNormaliseFindings(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'normalise_findings',
    title: 'Normalise findings',
    description:
      "Re-run cloudg's normaliser over a dataset's findings: duplicates within a scanner and equivalent checks across scanners merge, CVSS scores raise severities, and findings are mapped to compliance controls with the configured rulesets; the new compliance results are merged into the existing ones as ingesting does. Suppressions survive. Returns the counts before and after and the frameworks.",
    category: 'findings',
    sensitivity: 'internal',
    capabilities: ['read_state', 'write_state'],
    readOnly: false,
    destructive: false,
    idempotent: true,
    openWorld: false,
    input: {
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const result = await normaliseDataset(ctx.app, dataset, ctx.signal);
      // Replicas sharing the workspace normalise the same dataset the same way.
      ctx.app.record({ op: 'normalise', dataset: dataset.name });
      return result;
    },
  });
}
