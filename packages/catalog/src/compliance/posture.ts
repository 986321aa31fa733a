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

export function frameworkPosture(dataset: Dataset, framework: string): FrameworkPosture {
  const results = resultsByFramework(dataset).get(framework) ?? [];
  const failing = results.filter((c) => c.status === 'FAIL').length;
  const passing = results.filter((c) => c.status === 'PASS').length;
  const open = new Map(openFindingsOf(dataset, results).map((f) => [f.id, f]));
  for (const f of dataset.findings) {
    if (!f.is_suppressed && f.compliance_frameworks.includes(framework)) open.set(f.id, f);
  }
  const assets = new Set<string>();
  for (const f of open.values()) {
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
    severity_breakdown: severityBreakdown([...open.values()].map((f) => f.severity)),
    affected_assets: assets.size,
    uri: complianceUri(framework),
  };
}

/** Postures of the dataset's frameworks matching `query` (empty = all), most open findings first. */
export function compliancePosture(dataset: Dataset, query: string | null | undefined): FrameworkPosture[] {
  const matches = frameworkMatcher(query);
  return datasetFrameworks(dataset)
    .filter(matches)
    .map((fw) => frameworkPosture(dataset, fw))
    .sort((a, b) => b.open_findings - a.open_findings || (a.framework < b.framework ? -1 : 1));
}
