import { describe, expect, it } from 'vitest';
import { detectDirectoryKind, detectDocumentKind } from './detect.js';

describe('auto-detection of JSON content (MCP.md 11.2)', () => {
  it.each([
    [{ findings: [], metadata: {} }, 'report'],
    [{ findings: [], summary: {} }, 'report'],
    [{ assets: [], edges: [], unresolved_references: [] }, 'inventory'],
    [{ assets: [], edges: [], regions: {} }, 'inventory'],
    [{ assets: [] }, 'generic'],
    [{ edges: [] }, 'generic'],
    [{ findings: [] }, 'generic'],
    [{ Results: [], ArtifactName: 'img' }, 'trivy'],
    [{ Results: [], SchemaVersion: 2 }, 'trivy'],
    [{ Results: [], ArtifactType: 'vm' }, 'trivy'],
    [{ check_type: 'terraform' }, 'checkov'],
    [{ results: { failed_checks: [] } }, 'checkov'],
    [{ Findings: [] }, 'prowler'],
    [[{ check_type: 'terraform' }], 'checkov'],
    [[{ ProductArn: 'arn' }], 'prowler'],
    [[{ SchemaVersion: '2018-10-08' }], 'prowler'],
    [[{ finding_info: {} }], 'prowler'],
    [[{ status_code: 'FAIL' }], 'prowler'],
    [[{ severity: 'HIGH' }], 'generic'],
    [[{ title: 'x' }], 'generic'],
    [[{ resource_id: 'x' }], 'generic'],
  ])('%j is %s', (document, kind) => {
    expect(detectDocumentKind(document)).toBe(kind);
  });

  it('finds nothing in other shapes', () => {
    for (const doc of [{ hello: 1 }, [], [1, 2], [{ other: true }], 'text', 42, null, { Results: [] }]) {
      expect(detectDocumentKind(doc)).toBeUndefined();
    }
  });

  it('prefers the earlier rule when several match', () => {
    // A findings report that also has assets and edges is a report, not an inventory.
    expect(detectDocumentKind({ findings: [], summary: {}, assets: [], edges: [], regions: {} })).toBe(
      'report',
    );
    // An inventory that also lists findings is still an inventory.
    expect(detectDocumentKind({ assets: [], edges: [], regions: {}, findings: [] })).toBe('inventory');
  });
});

describe('auto-detection of directories', () => {
  it.each([
    [['findings.json', 'inventory-map.json'], 'inventory'],
    [['findings.json'], 'report'],
    [['scoutsuite_results_aws-1.js', 'other.txt'], 'scoutsuite'],
    [['results_json.json'], 'checkov'],
  ])('%j is %s', (entries, kind) => {
    expect(detectDirectoryKind(entries)).toBe(kind);
  });

  it('finds nothing in a directory without marker files', () => {
    expect(detectDirectoryKind(['notes.md', 'data.json'])).toBeUndefined();
  });
});
