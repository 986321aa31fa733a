import type { Dataset } from '../../dataset/dataset.js';
import { severityBreakdown } from '../../dataset/summary.js';
import type { Finding } from '../../model/finding.js';
import { maxSeverity, type Severity } from '../../model/severity.js';

/** Most failing controls a framework view lists. */
const MAX_FAILING_CONTROLS = 300;

export interface FrameworkPosture {
  framework: string;
  controls_evaluated: number;
  controls_failing: number;
  controls_passing: number;
  controls_other: number;
  pass_rate: number;
  open_findings: number;
  severity_breakdown: Partial<Record<Severity, number>>;
  affected_assets: number;
  uri: string;
}

export interface FailingControl {
  framework: string;
  control_id: string;
  control_title: string;
  open_findings: number;
  max_severity: Severity | null;
}

/** Frameworks named by the dataset: its compliance results and the tags on its findings. */
export function datasetFrameworks(dataset: Dataset): string[] {
  const names = new Set<string>();
  for (const c of dataset.compliance) names.add(c.framework);
  for (const f of dataset.findings) for (const fw of f.compliance_frameworks) names.add(fw);
  return [...names].sort();
}

function openFindingsTagged(dataset: Dataset, framework: string): Finding[] {
  return dataset.findings.filter((f) => !f.is_suppressed && f.compliance_frameworks.includes(framework));
}

/** Posture of one framework: control counts from the compliance results, findings from their tags. */
export function frameworkPosture(dataset: Dataset, framework: string): FrameworkPosture {
  const controls = dataset.compliance.filter((c) => c.framework === framework);
  const failing = controls.filter((c) => c.status === 'FAIL').length;
  const passing = controls.filter((c) => c.status === 'PASS').length;
  const open = openFindingsTagged(dataset, framework);
  const affected = new Set<string>();
  for (const f of open) {
    const asset = dataset.indexes.assetOfFinding(f);
    if (asset) affected.add(asset.id);
  }
  const judged = failing + passing;
  return {
    framework,
    controls_evaluated: controls.length,
    controls_failing: failing,
    controls_passing: passing,
    controls_other: controls.length - judged,
    pass_rate: judged === 0 ? 0 : Math.round((passing / judged) * 1000) / 10,
    open_findings: open.length,
    severity_breakdown: severityBreakdown(open.map((f) => f.severity)),
    affected_assets: affected.size,
    uri: `cloudg://compliance/${framework}`,
  };
}

/** Every framework's posture, the one with the most open findings first (ties by name). */
export function compliancePosture(dataset: Dataset): FrameworkPosture[] {
  return datasetFrameworks(dataset)
    .map((fw) => frameworkPosture(dataset, fw))
    .sort((a, b) => b.open_findings - a.open_findings || (a.framework < b.framework ? -1 : 1));
}

/** Failing controls of a framework with their open findings, worst first. */
export function failingControls(dataset: Dataset, framework: string): FailingControl[] {
  const rows: FailingControl[] = [];
  for (const c of dataset.compliance) {
    if (c.framework !== framework || c.status !== 'FAIL') continue;
    const open = c.finding_ids
      .map((id) => dataset.indexes.findingById(id))
      .filter((f): f is Finding => f !== undefined && !f.is_suppressed);
    rows.push({
      framework,
      control_id: c.control_id,
      control_title: c.control_title,
      open_findings: open.length,
      max_severity: maxSeverity(open.map((f) => f.severity)),
    });
  }
  return rows.slice(0, MAX_FAILING_CONTROLS);
}

/** A framework name as the dataset spells it: exact (any case) first, else the one name containing it. */
export function resolveFramework(dataset: Dataset, value: string): string | undefined {
  const wanted = value.trim().toLowerCase();
  const names = datasetFrameworks(dataset);
  const exact = names.find((n) => n.toLowerCase() === wanted);
  if (exact) return exact;
  const partial = names.filter((n) => n.toLowerCase().includes(wanted));
  return partial.length === 1 ? partial[0] : undefined;
}
