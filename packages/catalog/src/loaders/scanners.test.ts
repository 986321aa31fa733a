import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyEstate } from '../../test/support/estate.js';
import { findingRiskScore } from '../model/finding.js';
import { loadPath } from './load.js';

let estate: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  estate = await copyEstate();
});
afterEach(async () => {
  await estate.cleanup();
});

const at = (rel: string) => join(estate.dir, rel);
const SG_ADMIN = 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0admin';

describe('Prowler', () => {
  it('reads the one-record ASFF file of the reference (sg-web)', async () => {
    const { kind, data, defaultName } = await loadPath(at('scans/prowler-asff.json'));
    expect(kind).toBe('prowler');
    expect(defaultName).toBe('prowler-asff');
    expect(data.findings).toHaveLength(1);
    expect(data.findings?.[0]).toMatchObject({
      source_tool: 'prowler',
      severity: 'MEDIUM',
      title: 'Security group allows HTTP (80) from 0.0.0.0/0',
      resource_arn: 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0web',
      account_id: '111111111111',
      region: 'us-east-1',
      compliance_frameworks: ['CIS-AWS'],
      check_id: 'ec2_securitygroup_allow_ingress_from_internet_to_port_80',
    });
    expect(data.compliance).toEqual([
      expect.objectContaining({
        framework: 'CIS-AWS',
        control_id: '5.2',
        status: 'FAIL',
        finding_ids: [data.findings?.[0]?.id],
      }),
    ]);
  });

  it('reads OCSF output (the reference refused it; the gap is fixed here)', async () => {
    const { kind, data } = await loadPath(at('scans/prowler-ocsf.json'));
    expect(kind).toBe('prowler');
    expect(data.findings).toEqual([
      expect.objectContaining({
        title: 'Security group allows SSH (22) from 0.0.0.0/0',
        severity: 'CRITICAL',
        resource_arn: SG_ADMIN,
        compliance_frameworks: ['CIS-AWS', 'PCI-DSS'],
        remediation: 'Restrict 22 to the VPN.',
      }),
    ]);
    expect(data.compliance?.map((c) => `${c.framework} ${c.control_id}`)).toEqual([
      'CIS-AWS 5.2',
      'PCI-DSS 1.3.1',
    ]);
  });

  it('reads every Prowler finding of the sample from OCSF and from ASFF JSON Lines alike', async () => {
    const ocsf = await loadPath(at('scans/prowler-ocsf-all.json'));
    const lines = await loadPath(at('scans/prowler-asff.jsonl'));
    expect(lines.kind).toBe('prowler');
    const summary = (fs: typeof ocsf.data.findings) => fs?.map((f) => [f.title, f.severity]);
    expect(summary(ocsf.data.findings)).toEqual([
      ['Security group allows SSH (22) from 0.0.0.0/0', 'CRITICAL'],
      ['EC2 instance allows IMDSv1', 'HIGH'],
      ['RDS backup retention below 7 days', 'MEDIUM'],
      ['Bucket is publicly readable (allUsers)', 'HIGH'],
      ['VPC flow logs not enabled', 'INFO'],
      ['S3 versioning disabled', 'LOW'],
    ]);
    expect(summary(lines.data.findings)).toEqual(summary(ocsf.data.findings));
  });

  it('deduplicates a repeated record unless normalisation is off', async () => {
    const text = await readFile(at('scans/prowler-asff.jsonl'), 'utf8');
    const first = text.split('\n')[0];
    await writeFile(at('scans/twice.jsonl'), `${text}${first}\n`);
    const normalised = await loadPath(at('scans/twice.jsonl'));
    expect(normalised.data.findings).toHaveLength(6);
    const raw = await loadPath(at('scans/twice.jsonl'), { normalise: false });
    expect(raw.data.findings).toHaveLength(7);
    expect(new Set(raw.data.findings?.map((f) => f.id)).size).toBe(7);
  });

  it('merges the same problem reported by two scanners', async () => {
    const asff = JSON.parse(await readFile(at('scans/prowler-asff.json'), 'utf8'));
    const generic = [
      {
        title: asff[0].Title,
        severity: 'HIGH',
        resource_arn: asff[0].Resources[0].Id,
        account_id: asff[0].AwsAccountId,
        region: asff[0].Resources[0].Region,
        source_tool: 'custom',
      },
    ];
    await writeFile(at('scans/both.json'), JSON.stringify({ findings: [...generic] }));
    const prowler = await loadPath(at('scans/prowler-asff.json'));
    const { dedupeFindings } = await import('./normalise.js');
    const custom = (await loadPath(at('scans/both.json'))).data.findings ?? [];
    const merged = dedupeFindings([...(prowler.data.findings ?? []), ...custom]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({
      source_tool: 'prowler',
      severity: 'HIGH',
      also_reported_by: ['custom'],
    });
  });

  it('skips passing, manual and archived records', async () => {
    const ocsf = JSON.parse(await readFile(at('scans/prowler-ocsf.json'), 'utf8'));
    const asff = JSON.parse(await readFile(at('scans/prowler-asff.json'), 'utf8'));
    await writeFile(
      at('scans/mixed.json'),
      JSON.stringify([
        ocsf[0],
        { ...ocsf[0], status_code: 'PASS' },
        { ...ocsf[0], status_code: 'MANUAL' },
        { ...asff[0], Compliance: { Status: 'PASSED' } },
        { ...asff[0], RecordState: 'ARCHIVED' },
      ]),
    );
    expect((await loadPath(at('scans/mixed.json'))).data.findings).toHaveLength(1);
  });

  it('reads a Security Hub style {"Findings": [...]} batch', async () => {
    const asff = JSON.parse(await readFile(at('scans/prowler-asff.json'), 'utf8'));
    await writeFile(at('scans/batch.json'), JSON.stringify({ Findings: asff }));
    const { kind, data } = await loadPath(at('scans/batch.json'));
    expect(kind).toBe('prowler');
    expect(data.findings).toHaveLength(1);
  });
});

describe('ScoutSuite', () => {
  it('reads every scoutsuite_results*.js of a directory, one finding per flagged item', async () => {
    const { kind, data, defaultName } = await loadPath(at('scans/scoutsuite'));
    expect(kind).toBe('scoutsuite');
    expect(defaultName).toBe('scoutsuite');
    expect(data.findings?.map((f) => [f.resource_id, f.severity, f.account_id])).toEqual([
      ['prod-logs', 'HIGH', '111111111111'],
      ['ghost-bucket', 'MEDIUM', '111111111111'],
      ['jump-nsg', 'HIGH', '00000000-aaaa-bbbb-cccc-000000000001'],
    ]);
    expect(data.findings?.[2]?.compliance_frameworks).toEqual(['CIS-Azure']);
    expect(data.findings?.[0]?.compliance_frameworks).toEqual(['CIS-AWS', 'PCI-DSS']);
  });

  it('detects a single results file by its name', async () => {
    const { kind, data } = await loadPath(at('scans/scoutsuite/scoutsuite_results_aws-111111111111.js'));
    expect(kind).toBe('scoutsuite');
    expect(data.findings).toHaveLength(2);
  });

  it('refuses a results file whose JSON is broken, without quoting it', async () => {
    await writeFile(
      at('scans/scoutsuite_results_bad.js'),
      'scoutsuite_results =\n{"services": {"s3": tok-3xyz',
    );
    const attempt = loadPath(at('scans/scoutsuite_results_bad.js'));
    await expect(attempt).rejects.toMatchObject({ code: -32602, data: { format: 'scoutsuite results' } });
    await expect(attempt).rejects.not.toThrow(/tok-3xyz|scoutsuite_results_bad/);
  });
});

describe('Checkov', () => {
  it('reads results_json.json from a directory; failed checks only', async () => {
    const { kind, data } = await loadPath(at('scans/checkov'));
    expect(kind).toBe('checkov');
    expect(data.findings).toEqual([
      expect.objectContaining({
        source_tool: 'checkov',
        source_finding_id: 'CKV_AWS_363',
        title: 'Lambda runtime python3.8 is deprecated',
        severity: 'LOW',
        resource_id: 'api-handler',
        resource_type: 'aws_lambda_function',
        evidence: '/lambda.tf:1-14 (aws_lambda_function.api-handler)',
      }),
    ]);
  });

  it('reads a list of per-framework reports', async () => {
    const one = JSON.parse(await readFile(at('scans/checkov/results_json.json'), 'utf8'));
    await writeFile(at('scans/multi.json'), JSON.stringify([one, { ...one, check_type: 'cloudformation' }]));
    const { kind, data } = await loadPath(at('scans/multi.json'));
    expect(kind).toBe('checkov');
    expect(data.findings).toHaveLength(1);
  });
});

describe('Trivy', () => {
  it('reads vulnerabilities with their CVSS score', async () => {
    const { kind, data } = await loadPath(at('scans/trivy.json'));
    expect(kind).toBe('trivy');
    const [cve] = data.findings ?? [];
    expect(cve).toMatchObject({
      title: 'CVE-2024-1234 in openssl 3.0.1',
      severity: 'HIGH',
      cvss_score: 8.1,
      resource_id: 'web-1',
      source_finding_id: 'CVE-2024-1234',
    });
    expect(cve && findingRiskScore(cve)).toBe(7.8);
  });

  it('keeps secrets out of findings', async () => {
    await writeFile(
      at('scans/secrets.json'),
      JSON.stringify({
        SchemaVersion: 2,
        ArtifactName: 'repo',
        Results: [
          {
            Target: 'app/.env',
            Secrets: [
              {
                RuleID: 'aws-access-key-id',
                Title: 'AWS Access Key',
                Severity: 'CRITICAL',
                StartLine: 3,
                Match: 'AKIAABCDEFGHIJKLMNOP',
              },
            ],
          },
        ],
      }),
    );
    const { data } = await loadPath(at('scans/secrets.json'));
    expect(data.findings).toHaveLength(1);
    expect(JSON.stringify(data.findings)).not.toContain('AKIA');
  });
});

describe('generic JSON and explicit kinds', () => {
  it('reads {assets, edges, findings} and deduplicates assets by identifier', async () => {
    await writeFile(
      at('generic.json'),
      JSON.stringify({
        assets: [
          { id: 'a1', arn: 'arn:aws:s3:::b', name: 'b', asset_type: 'S3_BUCKET', provider: 'aws' },
          {
            id: 'a2',
            arn: 'arn:aws:s3:::b',
            name: 'b',
            asset_type: 'S3_BUCKET',
            provider: 'aws',
            is_internet_exposed: true,
          },
          { id: 'r', arn: 'arn:aws:iam::1:role/r', name: 'r', asset_type: 'IAM_ROLE', provider: 'AWS' },
        ],
        edges: [
          { source_id: 'r', target_id: 'a1', edge_type: 'grants_access' },
          { source_id: 'r', target_id: 'a2', edge_type: 'GRANTS_ACCESS' },
          { source_id: 'a2', target_id: 'a1', edge_type: 'REFERENCES' },
        ],
        findings: [{ title: 'public bucket', severity: 'high', resource_id: 'b' }],
      }),
    );
    const { kind, data } = await loadPath(at('generic.json'));
    expect(kind).toBe('generic');
    expect(data.assets?.map((a) => [a.id, a.is_internet_exposed])).toEqual([
      ['a1', true],
      ['r', false],
    ]);
    expect(data.edges?.map((e) => [e.source_id, e.target_id, e.edge_type])).toEqual([
      ['r', 'a1', 'GRANTS_ACCESS'],
    ]);
    expect(data.findings?.[0]?.severity).toBe('HIGH');
  });

  it('reads a list of finding-like records', async () => {
    await writeFile(at('list.json'), JSON.stringify([{ severity: 'LOW', title: 't', resource_id: 'web-1' }]));
    const { kind, data } = await loadPath(at('list.json'));
    expect(kind).toBe('generic');
    expect(data.findings).toHaveLength(1);
  });

  it('rebuilds the edges of a report that carries only its D3 graph', async () => {
    const report = JSON.parse(await readFile(at('report/findings.json'), 'utf8'));
    delete report.edges;
    await writeFile(at('graph-only.json'), JSON.stringify(report));
    const { data } = await loadPath(at('graph-only.json'));
    expect(data.edges).toHaveLength(56);
    expect(data.edges?.find((e) => e.target_id === 'sg-admin')).toMatchObject({
      source_id: '0.0.0.0/0',
      edge_type: 'SECURITY_GROUP_RULE',
      port_range: '22',
      cidr: '0.0.0.0/0',
    });
  });

  it('validates structure and reports where it is wrong', async () => {
    await writeFile(at('bad-map.json'), JSON.stringify({ assets: [{ id: 'x' }], edges: [], regions: {} }));
    await expect(loadPath(at('bad-map.json'))).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('does not match the inventory map format'),
      data: {
        kind: 'inventory map',
        issues: expect.arrayContaining([expect.objectContaining({ loc: 'assets.0.asset_type' })]),
      },
    });
  });

  it('honours an explicit kind over detection', async () => {
    const { kind, data } = await loadPath(at('inventory/findings.json'), { kind: 'generic' });
    expect(kind).toBe('generic');
    expect(data.findings).toHaveLength(12);
  });
});

describe('JSON Lines', () => {
  it('reads the good lines of a file whose later line is broken, and names the line, not the content', async () => {
    const text = await readFile(at('scans/prowler-asff.jsonl'), 'utf8');
    await writeFile(at('scans/cut.jsonl'), `${text}{"Title": "half-written sk-live-123`);
    const outcome = await loadPath(at('scans/cut.jsonl'));
    expect(outcome.data.findings).toHaveLength(6);
    expect(outcome.issues).toEqual([
      {
        path: at('scans/cut.jsonl'),
        error: '1 line(s) are not valid JSON and were skipped (line 7); the other 6 record(s) were read.',
      },
    ]);
    expect(JSON.stringify(outcome.issues)).not.toContain('sk-live');
  });
});
