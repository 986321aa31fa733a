/**
 * The last mapping tier: broad keywords for findings that neither the scanner, nor an exact check,
 * nor a ruleset pattern tied to any framework. Deliberately coarse (framework names only, filed
 * under each framework's aggregate control): better a finding counted under "CIS, findings
 * without a specific control" than missing from every compliance view.
 */
export const FALLBACK_FRAMEWORKS: readonly { framework: string; pattern: RegExp }[] = [
  {
    framework: 'CIS',
    pattern: /encrypt|public|mfa|password|root|cloudtrail|logging|flow log|security group|0\.0\.0\.0/i,
  },
  { framework: 'NIST-800-53', pattern: /encrypt|logging|audit|mfa|access|backup|patch|vulnerab|cve-/i },
  {
    framework: 'PCI-DSS',
    pattern: /encrypt|public|firewall|security group|0\.0\.0\.0|password|logging|vulnerab|cve-/i,
  },
  { framework: 'GDPR', pattern: /encrypt|public|personal|pii|retention|backup/i },
  { framework: 'SOC2', pattern: /logging|monitor|access|mfa|encrypt|backup/i },
  { framework: 'HIPAA', pattern: /encrypt|audit|logging|backup|access/i },
];
