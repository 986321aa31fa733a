import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { datasetSummary } from '../../dataset/summary.js';
import { prepareFindings } from '../../findings/prepare.js';
import { LOAD_KINDS } from '../../loaders/load.js';
import { datasetSummaryUri, type Workspace } from '../../workspace/workspace.js';

/** `load_dataset`: read a file or directory inside the allowed roots as a named dataset. */
export function registerLoadTool(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'load_dataset',
    title: 'Load dataset',
    description:
      'Load an inventory map, a cloudg findings report, generic {assets, edges, findings} JSON or native Prowler / ScoutSuite / Checkov / Trivy output (every version in common use) as a named dataset, and make it active unless activate is false. Returns the dataset summary, plus errors (files or parts of files that could not be read) and deduplication (findings merged, and why) when there is something to report.',
    category: 'workspace',
    sensitivity: 'internal',
    capabilities: ['read_fs', 'read_state', 'write_state'],
    idempotent: false,
    input: {
      path: z
        .string()
        .min(1)
        .describe(
          'File or directory inside an allowed root: inventory-map.json (or its directory), a cloudg findings.json report, a generic {assets, edges, findings} JSON, or native Prowler / ScoutSuite / Checkov / Trivy output.',
        ),
      name: z.string().default('').describe('Dataset name; default derives from the path.'),
      kind: z
        .enum(LOAD_KINDS as [string, ...string[]])
        .default('auto')
        .describe("Content type; 'auto' detects it."),
      activate: z.boolean().default(true).describe('Make it the active dataset.'),
      replace: z
        .boolean()
        .default(false)
        .describe('Overwrite an existing dataset with the same name (otherwise a name clash is an error).'),
    },
    handler: async (ctx, args) => {
      const ws = ctx.app;
      const dataset = await ws.load(args.path, {
        name: args.name || undefined,
        kind: args.kind as (typeof LOAD_KINDS)[number],
        activate: args.activate,
        replace: args.replace,
      });
      // The findings columns are built now, a slice at a time, so the first list_findings or
      // findings_summary of the dataset answers in its usual time (findings/prepare.ts).
      await prepareFindings(dataset, ctx.signal);
      ctx.link(datasetSummaryUri(dataset.name), `${dataset.name} summary`, {
        title: 'Dataset summary',
        mimeType: 'application/json',
      });
      // Beyond the reference: what the load skipped (a directory's unreadable files, the damaged
      // part of a file) and what deduplication merged, when there is something to say.
      const { load_errors: errors, deduplication } = dataset.metadata;
      return {
        loaded: dataset.name,
        active: ws.activeName === dataset.name,
        ...datasetSummary(dataset),
        ...(errors ? { errors } : {}),
        ...(deduplication ? { deduplication } : {}),
      };
    },
  });
}
