import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { datasetListing } from '../../dataset/summary.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from './args.js';

/** `select_dataset`, `unload_dataset` and `snapshot_dataset`: change which datasets are held. */
export function registerLifecycleTools(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'select_dataset',
    title: 'Select dataset',
    description:
      'Make a loaded dataset the default for every tool, resource and prompt. Returns active_dataset and the listing entry of the dataset.',
    category: 'workspace',
    sensitivity: 'internal',
    capabilities: ['read_state', 'write_state'],
    idempotent: true,
    input: { name: z.string().min(1).describe('Dataset to activate.') },
    handler: (ctx, args) => {
      const dataset = ctx.app.select(args.name);
      return { active_dataset: ctx.app.activeName, ...datasetListing(dataset) };
    },
  });

  registry.tool({
    name: 'unload_dataset',
    title: 'Unload dataset',
    description:
      'Drop a dataset from memory. Files on disk are untouched, but suppressions and ingested findings held only in memory are lost. When the active dataset goes, the most recently added remaining one becomes active.',
    category: 'workspace',
    sensitivity: 'internal',
    capabilities: ['read_state', 'write_state'],
    destructive: true,
    idempotent: true,
    input: { name: z.string().min(1).describe('Dataset to drop.') },
    handler: (ctx, args) => {
      const removed = ctx.app.remove(args.name);
      return { unloaded: removed.name, active_dataset: ctx.app.activeName, remaining: ctx.app.names() };
    },
  });

  registry.tool({
    name: 'snapshot_dataset',
    title: 'Snapshot dataset',
    description:
      'Deep copy a dataset (assets, edges, findings, compliance, coverage, organization, suppressions) under new_name, not activated. Take one before ingesting or re-collecting, then compare with diff_datasets.',
    category: 'workspace',
    sensitivity: 'internal',
    capabilities: ['read_state', 'write_state'],
    idempotent: false,
    input: {
      new_name: z.string().min(1).describe('Name for the copy.'),
      dataset: datasetArg(),
      replace: z
        .boolean()
        .default(false)
        .describe('Overwrite an existing dataset named new_name (otherwise a name clash is an error).'),
    },
    handler: (ctx, args) => {
      const copy = ctx.app.snapshot(args.dataset.trim() || null, args.new_name, { replace: args.replace });
      return { snapshot: copy.name, ...datasetListing(copy) };
    },
  });
}
