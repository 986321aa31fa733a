import { isPlainObject } from '@cloudg/core';
import { makeScannerFinding, type ScannerFinding } from './finding-factory.js';

/**
 * Trivy's JSON report (`--format json`): vulnerabilities, failed misconfigurations and secrets
 * per result target, all about the scanned artifact. Secret matches are never copied; only the
 * rule and the location are kept.
 */

type Rec = Record<string, unknown>;

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

export function parseTrivy(report: Rec): ScannerFinding[] {
  const artifact = typeof report.ArtifactName === 'string' ? report.ArtifactName : '';
  const out: ScannerFinding[] = [];
  const results = Array.isArray(report.Results) ? report.Results : [];
  for (const result of results) {
    if (!isPlainObject(result)) continue;
    const target = typeof result.Target === 'string' ? result.Target : artifact;
    for (const v of Array.isArray(result.Vulnerabilities) ? result.Vulnerabilities : []) {
      if (!isPlainObject(v)) continue;
      const id = String(v.VulnerabilityID ?? 'vulnerability');
      const pkg = String(v.PkgName ?? '');
      const installed = String(v.InstalledVersion ?? '');
      out.push(
        makeScannerFinding({
          tool: 'trivy',
          check_id: id,
          title: `${id} in ${pkg} ${installed}`.trim(),
          description: v.Description ?? v.Title,
          severity: v.Severity,
          resource_id: artifact || target,
          source_finding_id: id,
          cvss_score: cvssOf(v),
          remediation: v.FixedVersion ? `Upgrade ${pkg} to ${String(v.FixedVersion)}.` : null,
          evidence: `${target}: ${pkg} ${installed}`.trim(),
        }),
      );
    }
    for (const m of Array.isArray(result.Misconfigurations) ? result.Misconfigurations : []) {
      if (!isPlainObject(m) || (typeof m.Status === 'string' && m.Status.toUpperCase() !== 'FAIL')) continue;
      const id = String(m.ID ?? m.AVDID ?? 'misconfiguration');
      out.push(
        makeScannerFinding({
          tool: 'trivy',
          check_id: id,
          title: m.Title,
          description: m.Description ?? m.Message,
          severity: m.Severity,
          resource_id: artifact || target,
          source_finding_id: `${id}:${target}`,
          remediation: m.Resolution,
          evidence: target,
        }),
      );
    }
    for (const s of Array.isArray(result.Secrets) ? result.Secrets : []) {
      if (!isPlainObject(s)) continue;
      const id = String(s.RuleID ?? 'secret');
      out.push(
        makeScannerFinding({
          tool: 'trivy',
          check_id: id,
          title: `Secret in ${target}: ${String(s.Title ?? id)}`,
          severity: s.Severity,
          resource_id: artifact || target,
          source_finding_id: `${id}:${target}:${String(s.StartLine ?? '')}`,
          evidence: `${target} line ${String(s.StartLine ?? '?')}`,
        }),
      );
    }
  }
  return out;
}
