import type { Registry } from '@cloudg/core';
import { WORKSPACE_URI, type Workspace } from '../../workspace/workspace.js';
import { workspaceStatusOutput } from './output-schemas.js';

/** `workspace_status` and `list_datasets`: what is loaded, without needing a dataset. */
export function registerStatusTools(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'workspace_status',
    title: 'Workspace status',
    description:
      'Every loaded dataset, which one is active, and the directories file tools may read and write. Call it first; with nothing loaded it says how to load data (next_steps).',
    category: 'workspace',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    tags: ['start-here'],
    outputSchema: workspaceStatusOutput,
    handler: (ctx) => {
      const status = ctx.app.status();
      if (status.datasets.length > 0) {
        ctx.link(WORKSPACE_URI, 'workspace', { title: 'Workspace status', mimeType: 'application/json' });
      }
      return status;
    },
  });

  registry.tool({
    name: 'list_datasets',
    title: 'List datasets',
    description:
      'Loaded datasets with their kind, source, sizes and an active flag (the workspace listing without the directory information).',
    category: 'workspace',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    handler: (ctx) => ctx.app.listDatasets(),
  });
}
