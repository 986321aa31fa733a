import { describe, expect, it } from 'vitest';
import { FINDING_SORTS, sortFindings } from '../conventions/sorting.js';
import { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import { SEVERITIES } from '../model/severity.js';
import { findingsSortedBy } from './sorted.js';

/** Findings with many ties, nulls, repeated ids and mixed-case titles. */
function findings(): Finding[] {
  return Array.from({ length: 400 }, (_, i) => ({
    id: `f-${(i * 37) % 97}`,
    title: i % 3 ? `Check ${i % 11}` : `check ${i % 11}`,
    description: '',
    severity: SEVERITIES[i % 5] ?? 'INFO',
    source_tool: ['prowler', 'trivy', 'Checkov'][i % 3] ?? 'prowler',
    resource_id: null,
    resource_arn: null,
    resource_type: null,
    region: null,
    account_id: null,
    compliance_frameworks: [],
    is_suppressed: false,
    suppression_reason: null,
    cvss_score: i % 4 ? null : (i % 100) / 10,
    detected_at: i % 6 ? `2026-01-${String(1 + (i % 9)).padStart(2, '0')}T00:00:00+00:00` : null,
    evidence: null,
    remediation: null,
    source_finding_id: null,
  }));
}

describe('findingsSortedBy', () => {
  it.each(FINDING_SORTS)('gives the order sortFindings gives for %s', (sort) => {
    const dataset = new Dataset({ name: 'd', kind: 'report', source: 'test', findings: findings() });
    expect(findingsSortedBy(dataset, sort)).toEqual(sortFindings(dataset.findings, sort));
    // The very same objects, in the same places.
    const sorted = findingsSortedBy(dataset, sort);
    const expected = sortFindings(dataset.findings, sort);
    for (let i = 0; i < expected.length; i += 1) expect(sorted[i]).toBe(expected[i]);
  });
});
