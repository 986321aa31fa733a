import { mkdir } from 'node:fs/promises';
import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { normaliseFindings, providerFromResource } from '../../compliance/normaliser.js';
import { workspaceRulesets } from '../../compliance/workspace-rulesets.js';
import { Dataset } from '../../dataset/dataset.js';
import { exportSource } from '../../export/caller-dataset.js';
import { findingsJson } from '../../export/report/files.js';
import { exportDirectory, SUBDIR_PATTERN, writeExportFiles } from '../../export/write-files.js';
import { lintIamPolicies } from '../../findings/iam-lint.js';
import { generateReachabilityFindings } from '../../findings/reachability.js';
import type { CloudgEngine, EngineCollection } from '../../live/engine.js';
import { checkedCollection, checkedFindings } from '../../live/engine-output.js';
import { countAttackPaths } from '../../live/pipeline-analysis.js';
import type { Workspace } from '../../workspace/workspace.js';
import { forceArg, nameArg, preflightArg, providersArg, regionsArg, replaceArg } from './args.js';
import { runCollecting } from './collecting.js';

/**
 * `run_pipeline`: collect, scan, analyse, normalise and report in one call. The engine collects;
 * its optional `scan`, `analyse` and `report` phases run when it has them, and the catalog always
 * adds its own reachability findings, normalises (dedupe, compliance mapping) and writes
 * `findings.json` under `<output_dir>/<subdir>`.
 */
export function registerRunPipeline(registry: Registry<Workspace>, engine: CloudgEngine): void {
  registry.tool({
    name: 'run_pipeline',
    title: 'Run the whole pipeline',
    description:
      'The whole cloudg pipeline in one call: collect, scan, analyse (reachability and attack paths), normalise, then reports under <output_dir>/<subdir>. The result becomes the active dataset; returns its summary, report_paths, attack_paths_found and errors. Credentials are checked first, and the live guard refuses a repeat within the cooldown (-31029, with use_dataset).',
    category: 'live',
    sensitivity: 'confidential',
    capabilities: ['cloud_access', 'exec', 'read_state', 'write_fs', 'write_state'],
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: true,
    timeoutSeconds: 7200,
    // Minutes of work: a client that supports tasks gets a handle at once and polls (progress
    // shows as the task's status message); any other client waits for the result as before.
    taskSupport: 'optional',
    input: {
      providers: providersArg(),
      regions: regionsArg(),
      subdir: z
        .string()
        .regex(SUBDIR_PATTERN)
        .default('pipeline')
        .describe('Output sub-directory for reports.'),
      name: nameArg(),
      replace: replaceArg(),
      preflight: preflightArg(),
      force: forceArg(),
    },
    handler: (ctx, args) => {
      const ws = ctx.app;
      return runCollecting(
        ctx,
        engine,
        {
          tool: 'run_pipeline',
          prefix: 'pipeline',
          total: 6,
          key: (a) => ({ subdir: a.subdir }),
          // The output path is settled with the other arguments, before any cloud call.
          check: (_ctx, a) => {
            exportDirectory(ws, a.subdir);
          },
          collect: async ({ ctx, name, engine: e, config, providers, args: a, signal, hooks, errors }) => {
            const regions = a.regions && a.regions.length > 0 ? a.regions : null;
            const base = { config, providers, regions, signal, hooks };
            hooks.phase('collection');
            const collection: EngineCollection = checkedCollection(await e.collect(base), 'collection');
            const draft = new Dataset({
              ...collection,
              // The result's own name: the report is written from this dataset.
              name,
              kind: 'live',
              source: 'live',
            });
            const outDir = exportDirectory(ws, a.subdir);
            await mkdir(outDir, { recursive: true });

            hooks.phase('scanning');
            if (e.scan) {
              const found = await e.scan({ ...base, inventory: draft, outputDir: outDir });
              draft.findings.push(...checkedFindings(found, 'scan'));
            }
            signal.throwIfAborted();

            hooks.phase('analysis');
            const known = new Set(draft.findings.map((f) => f.id));
            for (const g of generateReachabilityFindings(draft, signal))
              if (!known.has(g.finding.id)) draft.findings.push(g.finding);
            // The IAM linter runs whenever assets were collected, as in the reference's pipeline.
            for (const f of lintIamPolicies(draft, signal).findings)
              if (!known.has(f.id)) draft.findings.push(f);
            draft.touch();
            const attackPaths = countAttackPaths(draft, signal);
            const reportPaths: Record<string, string> = {};
            if (e.analyse)
              Object.assign(reportPaths, await e.analyse({ ...base, inventory: draft, outputDir: outDir }));

            hooks.phase('normalisation');
            const normalised = normaliseFindings({
              findings: draft.findings,
              compliance: draft.compliance,
              catalog: await workspaceRulesets(ws),
              providerOf: (f) =>
                draft.indexes.assetOfFinding(f)?.provider.toLowerCase() ?? providerFromResource(f),
              signal,
            });
            draft.findings = normalised.findings;
            draft.compliance = normalised.compliance;
            draft.touch();

            hooks.phase('reporting');
            // The report is content for the caller: written as their output pipeline shows the
            // dataset (pseudonyms, redaction), with the export tools' findings.json writer.
            const source = await exportSource(ctx, draft);
            Object.assign(reportPaths, await writeExportFiles(outDir, findingsJson(source), signal));
            if (e.report) {
              try {
                Object.assign(reportPaths, await e.report({ ...base, inventory: draft, outputDir: outDir }));
              } catch (error) {
                if (signal.aborted) throw error;
                errors.push(`reporting: ${(error as Error).message}`);
              }
            }
            return {
              collection: { ...collection, findings: draft.findings, compliance: draft.compliance },
              extra: { report_paths: reportPaths, attack_paths_found: attackPaths },
            };
          },
        },
        args,
      );
    },
  });
}
