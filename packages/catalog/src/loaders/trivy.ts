import { isPlainObject } from '@cloudg/core';
import { makeScannerFinding, type ScannerFinding } from './finding-factory.js';

/**
 * Trivy's JSON reports, in the three shapes Trivy has written:
 *
 * - schema 2 (`--format json` since v0.20): `{SchemaVersion, ArtifactName, ArtifactType,
 *   Results}` for `image`, `fs`, `repo`, `config` and `sbom` scans;
 * - the legacy report before schema 2: a bare array of results, or `null` when nothing was found;
 * - the `k8s` cluster report: `{ClusterName, Resources}`, or `{ClusterName, Vulnerabilities,
 *   Misconfigurations}` from releases before 0.41, each entry a workload with its own results.
 *
 * Every result's vulnerabilities, failed misconfigurations and secrets become findings, whatever
 * the artifact type: the reference skipped misconfigurations of container images, but a failed
 * check in an image's configuration is still a failed check. Secret matches are never copied,
 * only the rule and the location.
 */

type Rec = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function list(value: unknown): Rec[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function cvssOf(v: Rec): number | null {
  if (!isPlainObject(v.CVSS)) return null;
  let best: number | null = null;
  for (const source of Object.values(v.CVSS)) {
    if (!isPlainObject(source)) continue;
    const score = typeof source.V3Score === 'number' ? source.V3Score : source.V2Score;
    if (typeof score === 'number' && (best === null || score > best)) best = score;
  }
  return best;
}

/** What every finding of one result shares: the resource it is about and where that lives. */
interface Subject {
  resourceId: string;
  resourceType?: string;
  accountId?: string;
  region?: string;
  /** Prefix of each finding's evidence (the cluster of a Kubernetes workload). */
  context?: string;
}

function parseResult(result: Rec, subject: Subject, out: ScannerFinding[]): void {
  const target = str(result.Target) ?? subject.resourceId;
  const where = subject.context ? `${subject.context} ${target}` : target;
  const common = {
    tool: 'trivy',
    resource_id: subject.resourceId,
    resource_type: subject.resourceType,
    account_id: subject.accountId,
    region: subject.region,
  };
  for (const v of list(result.Vulnerabilities)) {
    // A VEX `not_affected` status is the vendor saying this package is not vulnerable here; every
    // other status (affected, fixed, will_not_fix, fix_deferred, end_of_life...) is a finding.
    if (v.Status === 'not_affected') continue;
    const id = str(v.VulnerabilityID) ?? 'vulnerability';
    const pkg = str(v.PkgName) ?? '';
    const installed = str(v.InstalledVersion) ?? '';
    out.push(
      makeScannerFinding({
        ...common,
        check_id: id,
        title: `${id} in ${pkg} ${installed}`.trim(),
        description: v.Description ?? v.Title,
        severity: v.Severity,
        source_finding_id: id,
        cvss_score: cvssOf(v),
        remediation: v.FixedVersion ? `Upgrade ${pkg} to ${String(v.FixedVersion)}.` : null,
        evidence: `${where}: ${pkg} ${installed}`.trim(),
        // One CVE in two packages (or two copies of a package) of one image is two findings.
        location: `${target} ${pkg}@${installed}${str(v.PkgPath) ? ` ${String(v.PkgPath)}` : ''}`,
      }),
    );
  }
  for (const m of list(result.Misconfigurations)) {
    // Reports made with --include-non-failures list PASS and EXCEPTION results too.
    if (typeof m.Status === 'string' && m.Status.toUpperCase() !== 'FAIL') continue;
    const id = str(m.AVDID) ?? str(m.ID) ?? 'misconfiguration';
    const cause = isPlainObject(m.CauseMetadata) ? m.CauseMetadata : {};
    const line = typeof cause.StartLine === 'number' ? `:${cause.StartLine}` : '';
    const resource = str(cause.Resource);
    out.push(
      makeScannerFinding({
        ...common,
        check_id: id,
        title: m.Title,
        description: m.Description ?? m.Message,
        severity: m.Severity,
        source_finding_id: str(m.ID) ?? id,
        remediation: m.Resolution,
        evidence: `${where}${line}${m.Message ? `: ${String(m.Message)}` : ''}`,
        location: `${target}${line}${resource ? ` ${resource}` : ''}`,
      }),
    );
  }
  for (const s of list(result.Secrets)) {
    const id = str(s.RuleID) ?? 'secret';
    const line = s.StartLine === undefined ? '?' : String(s.StartLine);
    out.push(
      makeScannerFinding({
        ...common,
        check_id: id,
        title: `Secret in ${target}: ${str(s.Title) ?? id}`,
        severity: s.Severity ?? 'HIGH',
        source_finding_id: id,
        evidence: `${where} line ${line}`,
        location: `${target}:${line}`,
      }),
    );
  }
}

/** An EKS cluster ARN names the account and region the workloads run in. */
function clusterScope(cluster: string | undefined): { accountId?: string; region?: string } {
  const parts = cluster?.startsWith('arn:') ? cluster.split(':') : [];
  return { region: str(parts[3]), accountId: str(parts[4]) };
}

function parseCluster(report: Rec, out: ScannerFinding[]): void {
  const cluster = str(report.ClusterName);
  const scope = clusterScope(cluster);
  // Newer reports list each workload once under Resources; older ones list it under each of
  // Vulnerabilities and Misconfigurations.
  const workloads = [
    ...list(report.Resources),
    ...list(report.Vulnerabilities),
    ...list(report.Misconfigurations),
  ];
  for (const w of workloads) {
    const kind = str(w.Kind);
    const name = str(w.Name) ?? 'unknown';
    const namespace = str(w.Namespace);
    const subject: Subject = {
      resourceId: [namespace, kind, name].filter(Boolean).join('/'),
      resourceType: kind,
      ...scope,
      context: cluster ? `cluster ${cluster}` : undefined,
    };
    for (const result of list(w.Results)) parseResult(result, subject, out);
  }
}

/** Whether a parsed document is a Trivy report in any of its shapes (for detection). */
export function isTrivyDocument(document: unknown): boolean {
  if (Array.isArray(document)) {
    const first = document[0];
    return (
      isPlainObject(first) &&
      'Target' in first &&
      ['Vulnerabilities', 'Misconfigurations', 'Secrets', 'Type', 'Class'].some((k) => k in first)
    );
  }
  if (!isPlainObject(document)) return false;
  if ('ClusterName' in document)
    return ['Resources', 'Vulnerabilities', 'Misconfigurations'].some((k) => k in document);
  return (
    'Results' in document && ['ArtifactName', 'SchemaVersion', 'ArtifactType'].some((k) => k in document)
  );
}

export function parseTrivy(document: unknown): ScannerFinding[] {
  const out: ScannerFinding[] = [];
  if (Array.isArray(document)) {
    // Legacy report: no artifact name, so each result's target is the resource.
    for (const result of list(document)) parseResult(result, { resourceId: str(result.Target) ?? '' }, out);
    return out;
  }
  if (!isPlainObject(document)) return out;
  if ('ClusterName' in document) {
    parseCluster(document, out);
    return out;
  }
  const artifact = str(document.ArtifactName);
  for (const result of list(document.Results)) {
    parseResult(result, { resourceId: artifact ?? str(result.Target) ?? '' }, out);
  }
  return out;
}
