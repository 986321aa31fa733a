import type { Dataset } from '../dataset/dataset.js';
import { severityBreakdown } from '../dataset/summary.js';
import type { ComplianceResult, Finding } from '../model/finding.js';
import type { Severity } from '../model/severity.js';
import { datasetFrameworks, frameworkMatcher } from './framework-match.js';

/** One framework's posture in a dataset (a `compliance_summary` row). */
export interface FrameworkPosture {
  framework: string;
  /** Compliance results of the framework. */
  controls_evaluated: number;
  controls_failing: number;
  controls_passing: number;
  /** NOT_APPLICABLE, MANUAL (and any other status a file carried). */
  controls_other: number;
  /** passing / evaluated x 100, one decimal; null when nothing was evaluated. */
  pass_rate: number | null;
  /** Open findings linked from a result of the framework or tagged with it. */
  open_findings: number;
  severity_breakdown: Partial<Record<Severity, number>>;
  affected_assets: number;
  uri: string;
}

export function complianceUri(framework: string): string {
  return `cloudg://compliance/${encodeURIComponent(framework)}`;
}

export const NO_COMPLIANCE_HINT =
  'No compliance data matched. Findings need compliance_frameworks (run normalise_findings after ingesting scanner reports); list_frameworks shows the framework names.';

/** Results grouped by framework, in dataset order. */
export function resultsByFramework(dataset: Dataset): ReadonlyMap<string, readonly ComplianceResult[]> {
  return dataset.derived('compliance-by-framework', () => {
    const out = new Map<string, ComplianceResult[]>();
    for (const c of dataset.compliance) {
      const list = out.get(c.framework) ?? [];
      list.push(c);
      out.set(c.framework, list);
    }
    return out;
  });
}

/** The open findings a set of results lists (ids that name no finding are skipped). */
export function openFindingsOf(dataset: Dataset, results: Iterable<ComplianceResult>): Finding[] {
  const out = new Map<string, Finding>();
  for (const c of results) {
    for (const id of c.finding_ids) {
      const f = dataset.indexes.findingById(id);
      if (f && !f.is_suppressed) out.set(f.id, f);
    }
  }
  return [...out.values()];
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function postureRow(
  dataset: Dataset,
  framework: string,
  results: readonly ComplianceResult[],
  open: ReadonlySet<Finding>,
): FrameworkPosture {
  let failing = 0;
  let passing = 0;
  for (const c of results) {
    if (c.status === 'FAIL') failing += 1;
    else if (c.status === 'PASS') passing += 1;
  }
  const assets = new Set<string>();
  for (const f of open) {
    const asset = dataset.indexes.assetOfFinding(f);
    if (asset) assets.add(asset.id);
  }
  return {
    framework,
    controls_evaluated: results.length,
    controls_failing: failing,
    controls_passing: passing,
    controls_other: results.length - failing - passing,
    pass_rate: results.length === 0 ? null : round1((passing / results.length) * 100),
    open_findings: open.size,
    severity_breakdown: severityBreakdown([...open].map((f) => f.severity)),
    affected_assets: assets.size,
    uri: complianceUri(framework),
  };
}

/**
 * Open findings of each of the given frameworks: listed by one of its results or tagged with it.
 * One pass over the findings and one over the results, whatever the number of frameworks.
 */
function openFindingsByFramework(dataset: Dataset, frameworks: readonly string[]): Map<string, Set<Finding>> {
  const out = new Map(frameworks.map((fw) => [fw, new Set<Finding>()]));
  const byFramework = resultsByFramework(dataset);
  for (const [fw, set] of out) {
    for (const c of byFramework.get(fw) ?? []) {
      for (const id of c.finding_ids) {
        const f = dataset.indexes.findingById(id);
        if (f && !f.is_suppressed) set.add(f);
      }
    }
  }
  for (const f of dataset.findings) {
    if (f.is_suppressed) continue;
    for (const fw of f.compliance_frameworks) out.get(fw)?.add(f);
  }
  return out;
}

export function frameworkPosture(dataset: Dataset, framework: string): FrameworkPosture {
  const open = openFindingsByFramework(dataset, [framework]).get(framework) ?? new Set();
  return postureRow(dataset, framework, resultsByFramework(dataset).get(framework) ?? [], open);
}

/** A copy a caller may hand on (the rows themselves are cached per dataset version). */
export function copyPosture(row: FrameworkPosture): FrameworkPosture {
  return { ...row, severity_breakdown: { ...row.severity_breakdown } };
}

/**
 * Postures of the dataset's frameworks matching `query` (empty = all), most open findings first.
 * Cached per dataset version and query: copy a row (`copyPosture`) before handing it out.
 */
export function compliancePosture(
  dataset: Dataset,
  query: string | null | undefined,
): readonly FrameworkPosture[] {
  return dataset.derived(`compliance-posture\u0000${(query ?? '').trim().toLowerCase()}`, () =>
    computePosture(dataset, query),
  );
}

function computePosture(dataset: Dataset, query: string | null | undefined): FrameworkPosture[] {
  const frameworks = datasetFrameworks(dataset).filter(frameworkMatcher(query));
  const open = openFindingsByFramework(dataset, frameworks);
  const byFramework = resultsByFramework(dataset);
  return frameworks
    .map((fw) => postureRow(dataset, fw, byFramework.get(fw) ?? [], open.get(fw) ?? new Set()))
    .sort((a, b) => b.open_findings - a.open_findings || (a.framework < b.framework ? -1 : 1));
}
