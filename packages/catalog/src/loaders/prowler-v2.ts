import { makeScannerFinding, type ScannerFinding } from './finding-factory.js';

/**
 * Prowler 2's JSON output (`-M json`): one object per line, keyed by human labels (`Account
 * Number`, `Control`, `Resource ID`). The check id sits inside the `Control` text as
 * `[check114] Ensure hardware MFA ...`. Statuses are `FAIL`, `Pass`, `Info` and `Warning`; only
 * `FAIL` becomes a finding.
 */

type Rec = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function isProwlerV2Record(r: Rec): boolean {
  return 'Account Number' in r && 'Control' in r;
}

export function parseProwlerV2(r: Rec): ScannerFinding | null {
  if (str(r.Status)?.toUpperCase() !== 'FAIL') return null;
  const control = str(r.Control) ?? '';
  const tagged = /^\[([^\]]+)\]\s*(.*)$/.exec(control);
  const check = tagged?.[1] ?? (control || 'prowler');
  const resource = str(r['Resource ID']);
  return makeScannerFinding({
    tool: 'prowler',
    check_id: check,
    title: tagged?.[2] || control,
    description: r.Message ?? r.Risk,
    severity: r.Severity,
    resource_id: resource,
    region: r.Region,
    account_id: r['Account Number'],
    source_finding_id: check,
    detected_at: r.Timestamp,
    remediation: r.Remediation,
    evidence: r.Message,
    // Releases before 2.5 had no `Resource ID`: the message ("eu-west-1: user alice has no MFA")
    // is then what tells one failing resource from another under the same check.
    location: resource ? undefined : r.Message,
  });
}
