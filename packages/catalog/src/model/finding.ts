import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { coerceSeverity, type Severity } from './severity.js';

/** Base risk of each severity, before a CVSS score is averaged in. */
export const SEVERITY_RISK: Readonly<Record<Severity, number>> = {
  CRITICAL: 9.5,
  HIGH: 7.5,
  MEDIUM: 5.0,
  LOW: 2.5,
  INFO: 0.5,
};

/**
 * A finding's risk score, 0 to 10: the severity's base value, or the mean of that and the CVSS
 * score when there is one, to one decimal.
 */
export function findingRiskScore(finding: Pick<Finding, 'severity' | 'cvss_score'>): number {
  const base = SEVERITY_RISK[finding.severity];
  if (finding.cvss_score === null || finding.cvss_score === undefined) return base;
  return Math.round(((base + finding.cvss_score) / 2) * 10) / 10;
}

const optionalText = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : String(v)));

export const FindingSchema = z
  .looseObject({
    id: z.union([z.string().min(1), z.number()]).optional(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    severity: z.unknown().optional(),
    source_tool: z.string().nullish(),
    resource_id: optionalText,
    resource_arn: optionalText,
    resource_type: z.string().nullish(),
    region: z.string().nullish(),
    account_id: optionalText,
    compliance_frameworks: z.array(z.string()).nullish(),
    is_suppressed: z.boolean().nullish(),
    suppression_reason: z.string().nullish(),
    cvss_score: z.number().min(0).max(10).nullish(),
    detected_at: z.string().nullish(),
    evidence: z.unknown().optional(),
    remediation: z.unknown().optional(),
    source_finding_id: optionalText,
    location: z.string().nullish(),
  })
  .transform((raw): Finding => {
    const { risk_score: _derived, ...rest } = raw as typeof raw & { risk_score?: unknown };
    return {
      ...rest,
      id: rest.id === undefined ? randomUUID() : String(rest.id),
      title: rest.title || rest.source_finding_id || 'Untitled finding',
      description: rest.description ?? '',
      severity: coerceSeverity(rest.severity),
      source_tool: rest.source_tool || 'unknown',
      resource_id: rest.resource_id,
      resource_arn: rest.resource_arn,
      resource_type: rest.resource_type ?? null,
      region: rest.region ?? null,
      account_id: rest.account_id,
      compliance_frameworks: rest.compliance_frameworks ?? [],
      is_suppressed: rest.is_suppressed ?? false,
      suppression_reason: rest.suppression_reason ?? null,
      cvss_score: rest.cvss_score ?? null,
      detected_at: rest.detected_at ?? null,
      evidence: textOrNull(rest.evidence),
      remediation: textOrNull(rest.remediation),
      source_finding_id: rest.source_finding_id,
      ...(rest.location ? { location: rest.location } : {}),
    };
  });

function textOrNull(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export interface Finding {
  id: string;
  title: string;
  description: string;
  severity: Severity;
  source_tool: string;
  /** The resource as the scanner named it (an id, a name or an ARN). */
  resource_id: string | null;
  resource_arn: string | null;
  resource_type: string | null;
  region: string | null;
  account_id: string | null;
  compliance_frameworks: string[];
  is_suppressed: boolean;
  suppression_reason: string | null;
  cvss_score: number | null;
  detected_at: string | null;
  evidence: string | null;
  remediation: string | null;
  /** The scanner's own id for the finding or its check. */
  source_finding_id: string | null;
  /**
   * Where inside the resource the scanner saw the problem, when it says: an IaC file and
   * resource address (Checkov, Trivy config), a package and version (Trivy vulnerabilities), a
   * Kubernetes workload. Part of the deduplication key, so two packages with the same CVE in
   * one image stay two findings.
   */
  location?: string | null;
  [extra: string]: unknown;
}

export const COMPLIANCE_STATUSES = ['PASS', 'FAIL', 'ERROR', 'NOT_APPLICABLE', 'MANUAL'] as const;

export const ComplianceResultSchema = z
  .looseObject({
    id: z.string().min(1).optional(),
    framework: z.string().min(1),
    control_id: z.union([z.string(), z.number()]).transform(String),
    control_title: z.string().nullish(),
    status: z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.string()),
    finding_ids: z.array(z.union([z.string(), z.number()]).transform(String)).nullish(),
  })
  .transform(
    (raw): ComplianceResult => ({
      ...raw,
      id: raw.id ?? `${raw.framework}/${raw.control_id}`,
      framework: raw.framework,
      control_id: raw.control_id,
      control_title: raw.control_title ?? '',
      status: raw.status,
      finding_ids: raw.finding_ids ?? [],
    }),
  );

/** One control of one framework evaluated against a dataset. */
export interface ComplianceResult {
  id: string;
  framework: string;
  control_id: string;
  control_title: string;
  /** PASS, FAIL, ERROR, NOT_APPLICABLE, MANUAL (kept as given when a file says otherwise). */
  status: string;
  finding_ids: string[];
  [extra: string]: unknown;
}
