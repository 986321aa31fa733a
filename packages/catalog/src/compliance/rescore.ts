import type { Finding } from '../model/finding.js';
import { severityRank } from '../model/severity.js';

/**
 * Severity follows a CVSS score upwards, never down: 9.0 or more makes a finding CRITICAL, 7.0 to
 * 8.9 raises anything below HIGH to HIGH. Returns whether the severity changed.
 */
export function rescoreByCvss(f: Finding): boolean {
  const cvss = f.cvss_score;
  if (cvss === null || cvss === undefined) return false;
  const floor = cvss >= 9 ? 'CRITICAL' : cvss >= 7 ? 'HIGH' : null;
  if (floor === null || severityRank(f.severity) >= severityRank(floor)) return false;
  f.severity = floor;
  return true;
}
