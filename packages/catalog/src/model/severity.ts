import { normaliseEnumValue } from './vocabulary.js';

/** Finding severities, worst first, with their rank (CRITICAL 4 ... INFO 0). */
export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type Severity = (typeof SEVERITIES)[number];

const RANK: Readonly<Record<Severity, number>> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1, INFO: 0 };

export function severityRank(severity: Severity): number {
  return RANK[severity];
}

export function isSeverity(value: unknown): value is Severity {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/**
 * Map a scanner's severity word onto cloudg's scale. Scanners disagree on spelling
 * (`Informational`, `moderate`, `danger`...); anything unknown becomes MEDIUM so a finding is
 * never silently dropped.
 */
export function coerceSeverity(value: unknown): Severity {
  if (typeof value !== 'string') return 'MEDIUM';
  const word = normaliseEnumValue(value);
  if (isSeverity(word)) return word;
  switch (word) {
    case 'INFORMATIONAL':
    case 'INFORMATION':
    case 'NONE':
    case 'UNKNOWN':
      return 'INFO';
    case 'MODERATE':
    case 'WARNING':
    case 'MED':
      return 'MEDIUM';
    case 'DANGER':
    case 'ERROR':
    case 'IMPORTANT':
      return 'HIGH';
    case 'FATAL':
      return 'CRITICAL';
    default:
      return 'MEDIUM';
  }
}

/** Worst of a list of severities, or null for an empty list. */
export function maxSeverity(severities: Iterable<Severity>): Severity | null {
  let best: Severity | null = null;
  for (const s of severities) if (best === null || RANK[s] > RANK[best]) best = s;
  return best;
}
