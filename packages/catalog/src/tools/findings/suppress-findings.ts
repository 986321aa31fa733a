import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { suppressFindings, unsuppressFindings } from '../../findings/suppress.js';
import { findingsTriaged } from '../../findings/triage-cache.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/** Most finding ids one suppress or unsuppress call takes. */
export const MAX_TRIAGE_IDS = 500;

const findingIdsArg = (description: string) =>
  z.array(z.string()).min(1).max(MAX_TRIAGE_IDS).describe(description);

/** `suppress_findings` and `unsuppress_findings`: triage decisions on findings, with who and when. */
export function registerSuppressionTools(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'suppress_findings',
    title: 'Suppress findings',
    description:
      'Mark findings as accepted risk or false positive. Suppressed findings leave every open count, list_findings (unless include_suppressed), top risks, compliance roll-ups and prompts; get_finding shows the reason, who and when. Suppressing an already suppressed finding replaces its reason. Kept in memory (unloading the dataset loses them) unless the server has a state directory, where they survive restarts. Nothing is written to the cloud. Returns suppressed (changed now), already_suppressed and not_found.',
    category: 'findings',
    sensitivity: 'confidential',
    capabilities: ['read_state', 'write_state'],
    idempotent: true,
    input: {
      finding_ids: findingIdsArg('Finding ids (exact `id`, not source_finding_id).'),
      reason: z.string().min(3).max(500).describe('Why (accepted risk, false positive...).'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const call = { dataset, store: ctx.app.suppressions, by: ctx.principal.id };
      const { changed, ...outcome } = suppressFindings(call, args.finding_ids, args.reason);
      // The version (and so every cursor) moves only when a finding changed.
      if (changed.length > 0) findingsTriaged(ctx.app, dataset, changed);
      return { dataset: dataset.name, ...outcome };
    },
  });

  registry.tool({
    name: 'unsuppress_findings',
    title: 'Unsuppress findings',
    description:
      'Restore suppressed findings to the open counts and drop their stored reasons (and, with a state directory, record the restore so a restart does not bring the suppression back). Returns unsuppressed, not_suppressed (were not suppressed) and not_found.',
    category: 'findings',
    sensitivity: 'confidential',
    capabilities: ['read_state', 'write_state'],
    idempotent: true,
    input: {
      finding_ids: findingIdsArg('Finding ids (exact `id`).'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const call = { dataset, store: ctx.app.suppressions, by: ctx.principal.id };
      const { changed, ...outcome } = unsuppressFindings(call, args.finding_ids);
      if (changed.length > 0) findingsTriaged(ctx.app, dataset, changed);
      return { dataset: dataset.name, ...outcome };
    },
  });
}
