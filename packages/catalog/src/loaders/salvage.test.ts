import { describe, expect, it } from 'vitest';
import { parseJsonLinesLenient, salvageJsonArray, salvageTruncatedObject } from './salvage.js';

describe('salvageJsonArray', () => {
  it('keeps the complete records before the cut, whatever brackets their strings hold', () => {
    const text = '[{"a": "x]}", "b": [1, {"c": "\\"]"}]}, {"d": 2}, {"e": "cut here';
    expect(salvageJsonArray(text)).toEqual({
      records: [{ a: 'x]}', b: [1, { c: '"]' }] }, { d: 2 }],
      problem:
        'The file ends in the middle of record 3 (truncated); the 2 complete record(s) before it were read.',
    });
  });

  it('reads a whole array followed by junk', () => {
    expect(salvageJsonArray('[{"a":1},{"b":2}]\n<!-- log -->')?.records).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('stops at a damaged record', () => {
    const salvaged = salvageJsonArray('[{"a":1}, {"b": nope}, {"c":3}]');
    expect(salvaged?.records).toEqual([{ a: 1 }]);
    expect(salvaged?.problem).toContain('damaged after record 1');
  });

  it('gives up when nothing is complete or the text is not an array', () => {
    for (const text of ['[{"a":', '{"a": [1, 2', '', 'hello', '[]x'])
      expect(salvageJsonArray(text)).toBeUndefined();
  });
});

describe('parseJsonLinesLenient', () => {
  it('skips bad lines and numbers them', () => {
    expect(parseJsonLinesLenient('{"a":1}\n\n{"b":\n[1]\n{"c":3}\n')).toEqual({
      records: [{ a: 1 }, { c: 3 }],
      badLines: [3, 4],
    });
  });

  it('is not JSON Lines unless the first line is an object', () => {
    expect(parseJsonLinesLenient('[\n{"a":1}\n]')).toBeUndefined();
    expect(parseJsonLinesLenient('{\n"a": 1\n}')).toBeUndefined();
    expect(parseJsonLinesLenient('\n\n')).toBeUndefined();
  });
});

describe('salvageTruncatedObject', () => {
  it('keeps the complete records of a cut-off Trivy report, not the half-written one', () => {
    const text =
      '{"SchemaVersion": 2, "ArtifactName": "img", "Results": [{"Target": "os", "Vulnerabilities": [' +
      '{"VulnerabilityID": "CVE-1", "CVSS": {"nvd": {"V3Score": 9}}, "Severity": "HIGH"}, ' +
      '{"VulnerabilityID": "CVE-2", "CVSS": {"nvd": {"V3Score": 5}}, "Sev';
    expect(salvageTruncatedObject(text)?.document).toEqual({
      SchemaVersion: 2,
      ArtifactName: 'img',
      Results: [
        {
          Target: 'os',
          Vulnerabilities: [{ VulnerabilityID: 'CVE-1', CVSS: { nvd: { V3Score: 9 } }, Severity: 'HIGH' }],
        },
      ],
    });
  });

  it('keeps whole rules of a cut-off ScoutSuite object, where no array encloses them', () => {
    const text =
      '{"services": {"s3": {"findings": {"r1": {"items": ["s3.buckets.a"], "level": "danger"}, "r2": {"items": ["s3.b"], "lev';
    expect(salvageTruncatedObject(text)?.document).toEqual({
      services: { s3: { findings: { r1: { items: ['s3.buckets.a'], level: 'danger' } } } },
    });
  });

  it('reads a whole object followed by junk, and gives up on nothing complete', () => {
    expect(salvageTruncatedObject('{"a": {"b": 1}} trailing')?.document).toEqual({ a: { b: 1 } });
    for (const text of ['{"a": 1, "b": 2', '[{"a": {}}', 'x', ''])
      expect(salvageTruncatedObject(text)).toBeUndefined();
  });
});
