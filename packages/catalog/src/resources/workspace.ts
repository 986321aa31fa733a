import type { Registry } from '@cloudg/core';
import { completeDatasetName } from '../completions/datasets.js';
import { datasetSummary } from '../dataset/summary.js';
import { DATASETS_URI, WORKSPACE_URI, type Workspace } from '../workspace/workspace.js';

/** `cloudg://workspace`, `cloudg://datasets` and `cloudg://datasets/{dataset}/summary`. */
export function registerWorkspaceResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: WORKSPACE_URI,
    name: 'workspace',
    title: 'Workspace status',
    description:
      'Loaded datasets, the active one, allowed roots and the output directory (workspace_status without next_steps).',
    category: 'workspace',
    sensitivity: 'internal',
    mimeType: 'application/json',
    handler: (ctx) => {
      const { next_steps: _hint, ...status } = ctx.app.status();
      return status;
    },
  });

  registry.resource({
    uri: DATASETS_URI,
    name: 'datasets',
    title: 'Loaded datasets',
    description: 'The active dataset and the listing of every loaded dataset.',
    category: 'workspace',
    sensitivity: 'internal',
    mimeType: 'application/json',
    handler: (ctx) => {
      const { active_dataset, datasets } = ctx.app.status();
      return { active_dataset, datasets };
    },
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://datasets/{dataset}/summary',
    name: 'dataset-summary',
    title: 'Dataset summary',
    description: 'The dataset_summary object of one loaded dataset.',
    category: 'workspace',
    sensitivity: 'internal',
    mimeType: 'application/json',
    completions: { dataset: completeDatasetName },
    handler: (ctx, vars) => datasetSummary(ctx.app.get(vars.dataset ?? '')),
  });
}
