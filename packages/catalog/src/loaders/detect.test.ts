import { describe, expect, it } from 'vitest';
import { detectDirectoryKind, detectDocumentKind, isEmptyDocument, kindFromFileName } from './detect.js';

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

describe('scanner shapes the reference did not detect', () => {
  it.each([
    [[{ Target: 'debian', Type: 'debian', Vulnerabilities: [] }], 'trivy'],
    [{ ClusterName: 'minikube', Resources: [] }, 'trivy'],
    [
      { ClusterName: 'arn:aws:eks:us-east-1:1:cluster/c', Vulnerabilities: [], Misconfigurations: [] },
      'trivy',
    ],
    [
      { passed: 0, failed: 0, skipped: 0, parsingerrors: 0, resourcecount: 0, checkov_version: '2.1' },
      'checkov',
    ],
    [{ 'Account Number': '1', Control: '[check11] x', Status: 'FAIL' }, 'prowler'],
    [{ CheckID: 'iam_x', Status: 'FAIL' }, 'prowler'],
    [[{ CheckID: 'iam_x', Status: 'FAIL' }], 'prowler'],
    [[{ FindingUniqueId: 'prowler-aws-x' }], 'prowler'],
  ])('%j is %s', (document, kind) => {
    expect(detectDocumentKind(document)).toBe(kind);
  });

  it('calls null, [], {} and nothing else empty', () => {
    for (const doc of [null, [], {}]) expect(isEmptyDocument(doc)).toBe(true);
    for (const doc of [[null], { a: 1 }, 0, '']) expect(isEmptyDocument(doc)).toBe(false);
  });

  it('guesses an empty report’s scanner from its file name', () => {
    expect(kindFromFileName('prowler-output-123456789012-20240101.ocsf.json')).toBe('prowler');
    expect(kindFromFileName('out.asff.json')).toBe('prowler');
    expect(kindFromFileName('trivy-image.json')).toBe('trivy');
    expect(kindFromFileName('results_json.json')).toBe('checkov');
    expect(kindFromFileName('scoutsuite_results_aws.js')).toBe('scoutsuite');
    expect(kindFromFileName('report.json')).toBeUndefined();
  });

  it('finds ScoutSuite and Scout2 results in the subdirectory those tools write', () => {
    expect(detectDirectoryKind(['report.html', 'scoutsuite-results/scoutsuite_results_aws-1.js'])).toBe(
      'scoutsuite',
    );
    expect(detectDirectoryKind(['inc-awsconfig/aws_config.js', 'report.html'])).toBe('scoutsuite');
    expect(detectDirectoryKind(['a/b/c/scoutsuite_results_aws-1.js'])).toBeUndefined();
  });

  it("knows Prowler's output directory by its file names", () => {
    expect(
      detectDirectoryKind([
        'compliance/prowler-output-123456789012-20240101_cis_2.0_aws.csv',
        'prowler-output-123456789012-20240101.html',
        'prowler-output-123456789012-20240101.ocsf.json',
      ]),
    ).toBe('prowler');
    expect(detectDirectoryKind(['out.asff.json'])).toBe('prowler');
  });
});
