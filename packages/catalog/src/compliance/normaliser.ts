import type { ControlRef } from '../loaders/finding-factory.js';
import { dedupeFindings, mergeComplianceResults } from '../loaders/normalise.js';
import type { ComplianceResult, Finding } from '../model/finding.js';
import { mergeEquivalentChecks } from './equivalence-merge.js';
import { ControlRegistry, compilePatternRules, type MappingContext, mapFinding } from './mapping.js';
import { rescoreByCvss } from './rescore.js';
import type { RulesetCatalog } from './ruleset-catalog.js';

/**
 * Normalising a dataset's findings against a set of rulesets: deduplication within a scanner and
 * by the loaders' rules (their `dedupeFindings`), the strict cross-scanner merge of equivalent
 * checks, CVSS rescoring, compliance mapping, and the fresh compliance results merged into the
 * existing ones by the loaders' `mergeComplianceResults`. Pure: the
 * caller installs the returned arrays in one step.
 */

export interface NormaliseInput {
  findings: readonly Finding[];
  compliance: readonly ComplianceResult[];
  catalog: RulesetCatalog;
  /** Provider of a finding (lower case), for the pattern tier; null when unknown. */
  providerOf?: (f: Finding) => string | null;
  signal?: AbortSignal;
}

export interface NormaliseOutcome {
  findings: Finding[];
  compliance: ComplianceResult[];
  /** Findings merged by the loaders' deduplication and by equivalent checks. */
  merged: { duplicates: number; equivalent_checks: number };
  /** Findings whose severity a CVSS score raised. */
  rescored: number;
}

/** ARN-shaped identifiers tell their cloud; anything else is left to the asset match. */
export function providerFromResource(f: Finding): string | null {
  const ref = f.resource_arn ?? f.resource_id ?? '';
  if (ref.startsWith('arn:')) return 'aws';
  if (ref.toLowerCase().startsWith('/subscriptions/')) return 'azure';
  if (ref.startsWith('//') || ref.startsWith('projects/')) return 'gcp';
  return null;
}

export function normaliseFindings(input: NormaliseInput): NormaliseOutcome {
  const { catalog, signal } = input;
  // dedupeFindings returns copies, so the dataset keeps serving its findings until the caller
  // swaps the arrays; mapping assigns new arrays rather than changing the copies' shared ones.
  const deduped = dedupeFindings(input.findings);
  signal?.throwIfAborted();
  const equivalent = mergeEquivalentChecks(deduped, catalog, signal);

  const spelling = new Map<string, string>();
  for (const c of input.compliance) spelling.set(c.framework.toLowerCase(), c.framework);
  for (const f of input.findings)
    for (const fw of f.compliance_frameworks)
      if (!spelling.has(fw.toLowerCase())) spelling.set(fw.toLowerCase(), fw);
  const listedControls = new Map<string, ControlRef[]>();
  for (const c of input.compliance) {
    for (const id of c.finding_ids) {
      const list = listedControls.get(id) ?? [];
      list.push({ framework: c.framework, control_id: c.control_id });
      listedControls.set(id, list);
    }
  }
  const ctx: MappingContext = {
    catalog,
    spelling,
    listedControls,
    providerOf: input.providerOf ?? providerFromResource,
    controls: new ControlRegistry(),
  };
  const patternRules = compilePatternRules(catalog.patternRules);
  let rescored = 0;
  equivalent.findings.forEach((f, i) => {
    if (i % 2048 === 0) signal?.throwIfAborted();
    if (rescoreByCvss(f)) rescored += 1;
    mapFinding(f, ctx, patternRules);
  });

  signal?.throwIfAborted();
  return {
    findings: equivalent.findings,
    compliance: mergeComplianceResults(input.compliance, equivalent.findings, (fw, id) =>
      ctx.controls.title(fw, id),
    ),
    merged: {
      duplicates: input.findings.length - deduped.length,
      equivalent_checks: equivalent.merged,
    },
    rescored,
  };
}
