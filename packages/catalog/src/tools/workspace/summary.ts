import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { datasetSummary } from '../../dataset/summary.js';
import { datasetSummaryUri, type Workspace } from '../../workspace/workspace.js';
import { datasetArg } from './args.js';
import { datasetSummaryOutput } from './output-schemas.js';

/** `dataset_summary`: the headline numbers of one dataset. */
export function registerSummaryTool(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'dataset_summary',
    title: 'Dataset summary',
    description:
      'Headline numbers of one dataset: assets, edges, findings by severity, accounts, regions, exposure, cross-account edges, frameworks and breakdowns by type and provider.',
    category: 'workspace',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    outputSchema: datasetSummaryOutput,
    input: { dataset: datasetArg() },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      ctx.link(datasetSummaryUri(dataset.name), `${dataset.name} summary`, { mimeType: 'application/json' });
      return datasetSummary(dataset);
    },
  });
}
