import { describe, expect, it } from 'vitest';
import { findingRiskScore } from '../model/finding.js';
import { attackPathScore, CROWN_JEWEL_WEIGHTS, topRiskScore } from './risk.js';

describe('risk scores', () => {
  it('scores findings by severity, averaged with CVSS when present', () => {
    expect(findingRiskScore({ severity: 'CRITICAL', cvss_score: null })).toBe(9.5);
    expect(findingRiskScore({ severity: 'HIGH', cvss_score: null })).toBe(7.5);
    expect(findingRiskScore({ severity: 'MEDIUM', cvss_score: null })).toBe(5);
    expect(findingRiskScore({ severity: 'LOW', cvss_score: null })).toBe(2.5);
    expect(findingRiskScore({ severity: 'INFO', cvss_score: null })).toBe(0.5);
    expect(findingRiskScore({ severity: 'HIGH', cvss_score: 8.1 })).toBe(7.8);
  });

  it('scores top risks as max risk x exposure x blast x volume', () => {
    const none = topRiskScore({
      maxFindingRisk: 9.5,
      exposed: false,
      transitiveDependents: 0,
      openFindings: 1,
    });
    expect(none).toEqual({ max_finding_risk: 9.5, exposure: 1, blast: 1, volume: 1, score: 9.5 });
    const exposed = topRiskScore({
      maxFindingRisk: 7.5,
      exposed: true,
      transitiveDependents: 9,
      openFindings: 3,
    });
    expect(exposed.blast).toBeCloseTo(1.5);
    expect(exposed.volume).toBeCloseTo(1.1);
    expect(exposed.score).toBe(18.56);
    const capped = topRiskScore({
      maxFindingRisk: 5,
      exposed: false,
      transitiveDependents: 10_000,
      openFindings: 50,
    });
    expect([capped.blast, capped.volume]).toEqual([2, 1.5]);
  });

  it('scores attack paths by target weight, findings on the path and length', () => {
    expect(CROWN_JEWEL_WEIGHTS.RDS_INSTANCE).toBe(10);
    expect(CROWN_JEWEL_WEIGHTS.S3_BUCKET).toBe(8);
    expect(attackPathScore(10, 2, 3)).toBeCloseTo(10.4);
    expect(attackPathScore(8, 25, 1)).toBe(13);
  });
});
