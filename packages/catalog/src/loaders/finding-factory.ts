import { createHash } from 'node:crypto';
import type { Finding } from '../model/finding.js';
import { coerceSeverity } from '../model/severity.js';

/** A control a scanner says the finding fails, before it becomes a compliance result. */
export interface ControlRef {
  framework: string;
  control_id: string;
}

/** A parsed finding: the model plus the scanner's check id and the controls it fails. */
export interface ScannerFinding extends Finding {
  check_id: string;
  compliance_controls: ControlRef[];
}

/**
 * Deterministic id for a scanner finding: a UUID-shaped SHA-1 of the tool, the scanner's own id,
 * the resource, account, region and location, so re-loading the same report yields the same ids
 * (stable cursors, diffs) and two findings that deduplication keeps apart never share an id.
 */
export function scannerFindingId(...parts: (string | null | undefined)[]): string {
  const hex = createHash('sha1')
    .update(parts.map((p) => p ?? '').join('\u0000'))
    .digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number') return String(value);
  return null;
}

export interface ScannerFindingInit {
  tool: string;
  check_id: string;
  title: unknown;
  description?: unknown;
  severity: unknown;
  resource_id?: unknown;
  resource_arn?: unknown;
  resource_type?: unknown;
  region?: unknown;
  account_id?: unknown;
  source_finding_id?: unknown;
  detected_at?: unknown;
  remediation?: unknown;
  evidence?: unknown;
  /** Where inside the resource: a file and line, a package, a workload (see `Finding.location`). */
  location?: unknown;
  cvss_score?: number | null;
  controls?: ControlRef[];
}

export function makeScannerFinding(init: ScannerFindingInit): ScannerFinding {
  const resourceId = text(init.resource_id);
  let resourceArn = text(init.resource_arn);
  // An ARN given as the resource id is the resource's ARN too.
  if (!resourceArn && resourceId?.startsWith('arn:')) resourceArn = resourceId;
  const sourceId = text(init.source_finding_id);
  const controls = dedupeControls(init.controls ?? []);
  const title = text(init.title) ?? init.check_id;
  const account = text(init.account_id);
  const region = text(init.region);
  const location = text(init.location);
  return {
    id: scannerFindingId(
      init.tool,
      init.check_id,
      sourceId,
      resourceArn ?? resourceId,
      account,
      region,
      location,
    ),
    title,
    description: text(init.description) ?? title,
    severity: coerceSeverity(init.severity),
    source_tool: init.tool,
    resource_id: resourceId ?? resourceArn,
    resource_arn: resourceArn,
    resource_type: text(init.resource_type),
    region,
    account_id: account,
    compliance_frameworks: [...new Set(controls.map((c) => c.framework))],
    is_suppressed: false,
    suppression_reason: null,
    cvss_score: init.cvss_score ?? null,
    detected_at: text(init.detected_at),
    evidence: text(init.evidence),
    remediation: text(init.remediation),
    source_finding_id: sourceId,
    ...(location ? { location } : {}),
    check_id: init.check_id,
    compliance_controls: controls,
  };
}

function dedupeControls(controls: ControlRef[]): ControlRef[] {
  const seen = new Set<string>();
  const out: ControlRef[] = [];
  for (const c of controls) {
    const key = `${c.framework}\u0000${c.control_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}
