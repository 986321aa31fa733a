import type { Registry } from '@cloudg/core';
import { normaliseFindings, providerFromResource } from '../../compliance/normaliser.js';
import { workspaceRulesets } from '../../compliance/workspace-rulesets.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { prepareFindings } from '../../findings/prepare.js';
import type { Finding } from '../../model/finding.js';
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
      const catalog = await workspaceRulesets(ctx.app);
      const providerOf = (f: Finding) =>
        dataset.indexes.assetOfFinding(f)?.provider.toLowerCase() ?? providerFromResource(f);
      const before = { findings: dataset.findings.length, compliance: dataset.compliance.length };
      const outcome = normaliseFindings({
        findings: dataset.findings,
        compliance: dataset.compliance,
        catalog,
        providerOf,
        signal: ctx.signal,
      });
      dataset.findings = outcome.findings;
      dataset.compliance = outcome.compliance;
      ctx.app.mutated(dataset);
      // Build the findings columns now, as load_dataset does (findings/prepare.ts).
      await prepareFindings(dataset, ctx.signal);
      return {
        dataset: dataset.name,
        findings_before: before.findings,
        findings_after: dataset.findings.length,
        compliance_results_before: before.compliance,
        compliance_results_after: dataset.compliance.length,
        frameworks: [...new Set(dataset.compliance.map((c) => c.framework))].sort(),
        merged: outcome.merged,
        rescored: outcome.rescored,
      };
    },
  });
}
