import type { Dataset } from '../dataset/dataset.js';
import type { ComplianceResult } from '../model/finding.js';
import { maxSeverity, type Severity, severityRank } from '../model/severity.js';
import { compareControlIds } from './framework-match.js';
import { openFindingsOf } from './posture.js';

/** A compliance result as `list_controls` shows it (source `dataset`). */
export interface ControlRow {
  framework: string;
  control_id: string;
  control_title: string;
  status: string;
  /** Finding ids the result lists. */
  findings: number;
  open_findings: number;
  max_severity: Severity | null;
}

/** Failing first, then the statuses that need a look, passing last. */
const STATUS_ORDER: Readonly<Record<string, number>> = {
  FAIL: 0,
  ERROR: 1,
  MANUAL: 2,
  NOT_APPLICABLE: 3,
  PASS: 4,
};

export function controlRow(dataset: Dataset, result: ComplianceResult): ControlRow {
  const open = openFindingsOf(dataset, [result]);
  return {
    framework: result.framework,
    control_id: result.control_id,
    control_title: result.control_title,
    status: result.status,
    findings: result.finding_ids.length,
    open_findings: open.length,
    max_severity: maxSeverity(open.map((f) => f.severity)),
  };
}

/** Worst first: status, worst open finding, most open findings, then framework and control id. */
export function compareControlRows(a: ControlRow, b: ControlRow): number {
  const sev = (r: ControlRow) => (r.max_severity === null ? -1 : severityRank(r.max_severity));
  return (
    (STATUS_ORDER[a.status] ?? 1) - (STATUS_ORDER[b.status] ?? 1) ||
    sev(b) - sev(a) ||
    b.open_findings - a.open_findings ||
    (a.framework < b.framework ? -1 : a.framework > b.framework ? 1 : 0) ||
    compareControlIds(a.control_id, b.control_id)
  );
}

/** Rows of the results of the given frameworks, optionally of one status, worst first. */
export function controlRows(dataset: Dataset, frameworks: ReadonlySet<string>, status = ''): ControlRow[] {
  return dataset.compliance
    .filter((c) => frameworks.has(c.framework) && (!status || c.status === status))
    .map((c) => controlRow(dataset, c))
    .sort(compareControlRows);
}
