import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { ingestReports, MAX_INGEST_PATHS } from '../../findings/ingest.js';
import type { Workspace } from '../../workspace/workspace.js';

export {
  DEFAULT_NEW_DATASET,
  INGEST_TOOLS,
  type IngestTool,
  MAX_INGEST_PATHS,
} from '../../findings/ingest.js';

/**
 * `ingest_reports`: parse existing scanner output (nothing runs, nothing reaches the cloud) and
 * add the findings to a dataset, or to a new findings-only one. Every path is checked against
 * the allowed roots before anything is read; a path that is missing or cannot be parsed is
 * reported in `errors` and the others are still read.
 */
export function registerIngestReports(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'ingest_reports',
    title: 'Ingest scanner reports',
    description:
      'Parse existing scanner output (no scanner runs and nothing is sent to the cloud) and add the findings to a dataset, matching them to assets by ARN, id or name. Reads Prowler 2 to 5 (JSON Lines, native JSON, OCSF, ASFF), ScoutSuite and Scout2, Checkov (single, multi-framework, summary-only) and Trivy (schema 2, legacy, k8s). A path that is missing or cannot be parsed is listed in errors and the others are still read; a partly damaged file gives its complete records. Returns parsed, per_path, errors, findings_before/after, matched_to_assets and deduplication (how many findings merged and why).',
    category: 'findings',
    sensitivity: 'confidential',
    capabilities: ['read_fs', 'read_state', 'write_state'],
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: false,
    input: {
      reports: z
        .record(z.string(), z.array(z.string().min(1)).max(MAX_INGEST_PATHS))
        .describe(
          "Tool -> report paths (files or directories inside an allowed root), e.g. {'prowler': ['out/prowler/'], 'trivy': ['scan.json']}. Tools: prowler, scoutsuite, checkov, trivy.",
        ),
      dataset: z
        .string()
        .default('')
        .describe('Dataset to add the findings to; empty = active. Created if new_dataset is true.'),
      new_dataset: z
        .boolean()
        .default(false)
        .describe('Create a new findings-only dataset named `dataset` instead.'),
      normalise: z
        .boolean()
        .default(true)
        .describe('Deduplicate across scanners and map to compliance frameworks afterwards.'),
      activate: z
        .boolean()
        .default(true)
        .describe('With new_dataset: make the new dataset the active one (like load_dataset).'),
      replace: z
        .boolean()
        .default(false)
        .describe('With new_dataset: overwrite an existing dataset of that name.'),
    },
    handler: async (ctx, args) => {
      const { result, settled } = await ingestReports(ctx.app, args, ctx.signal);
      // Replicas sharing the workspace read the same reports into the same dataset.
      ctx.app.record({ op: 'ingest', request: settled });
      return result;
    },
  });
}
