/**
 * Scanners name compliance frameworks in their own way (`CIS-2.0`, `CIS Amazon Web Services
 * Foundations`, `PCI-3.2.1`, `NIST-800-53-Revision-5`). cloudg groups them under one name per
 * framework, with CIS split by cloud because the benchmarks differ per provider.
 */
const CIS_BY_PROVIDER: Record<string, string> = { aws: 'CIS-AWS', azure: 'CIS-Azure', gcp: 'CIS-GCP' };

export function canonicalFramework(tag: string, provider: string | null = null): string {
  const t = tag.trim();
  const lower = t.toLowerCase();
  if (lower.startsWith('cis')) {
    if (/azure|microsoft/.test(lower)) return 'CIS-Azure';
    if (/gcp|google/.test(lower)) return 'CIS-GCP';
    if (/aws|amazon/.test(lower)) return 'CIS-AWS';
    if (/kubernetes|k8s|eks|gke/.test(lower)) return 'CIS-Kubernetes';
    return CIS_BY_PROVIDER[(provider ?? 'aws').toLowerCase()] ?? 'CIS-AWS';
  }
  if (lower.startsWith('pci')) return 'PCI-DSS';
  if (/^nist[-_ ]?800[-_ ]?53/.test(lower)) return 'NIST-800-53';
  if (/^nist[-_ ]?800[-_ ]?171/.test(lower)) return 'NIST-800-171';
  if (/^nist[-_ ]?csf/.test(lower)) return 'NIST-CSF';
  if (/^iso[-_ ]?27001/.test(lower)) return 'ISO-27001';
  if (/^soc[-_ ]?2/.test(lower)) return 'SOC2';
  if (lower.startsWith('hipaa')) return 'HIPAA';
  if (lower.startsWith('gdpr')) return 'GDPR';
  if (/^aws[-_ ]foundational/.test(lower)) return 'AWS-FSBP';
  return t;
}

/** Prowler's ASFF requirement strings: `<framework-version> <requirement> [<requirement>...]`. */
export function parseRequirementString(
  value: string,
  provider: string | null,
): { framework: string; control_id: string }[] {
  const [tag, ...requirements] = value.trim().split(/\s+/);
  if (!tag) return [];
  const framework = canonicalFramework(tag, provider);
  if (requirements.length === 0) return [{ framework, control_id: tag }];
  return requirements.map((control_id) => ({ framework, control_id }));
}
