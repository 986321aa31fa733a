import { describe, expect, it } from 'vitest';
import { FindingSchema, findingRiskScore } from '../model/finding.js';
import { normaliseFindings } from './normaliser.js';
import { loadRulesets } from './ruleset-loader.js';

const BUCKET = 'arn:aws:s3:::orders-archive';
const ASFF = 'prowler-aws-s3_bucket_default_encryption-123456789012-eu-west-1-orders-archive';

function finding(
  id: string,
  tool: string,
  check: string | null,
  title: string,
  severity: string,
  extra = {},
) {
  return FindingSchema.parse({
    id,
    resource_id: BUCKET,
    resource_arn: BUCKET,
    source_tool: tool,
    source_finding_id: check,
    title,
    description: title,
    severity,
    ...extra,
  });
}

/** The five findings of the reference's normaliser walk-through: one bucket, one image. */
function walkThrough() {
  return [
    finding('p1', 'prowler', ASFF, 'S3 bucket default encryption', 'MEDIUM'),
    finding('p2', 'prowler', ASFF, 'S3 bucket default encryption', 'MEDIUM'),
    finding('t1', 'trivy', 'AVD-AWS-0088', '[Trivy] S3 bucket default encryption', 'HIGH'),
    finding('t2', 'trivy', 'CVE-2024-0001', 'openssl: buffer overflow', 'MEDIUM', { cvss_score: 9.8 }),
    finding('c1', 'custom', null, 'CloudTrail logging disabled in eu-west-1', 'LOW'),
  ];
}

describe('normaliseFindings', () => {
  it('merges a repeated check and an equivalent check of another scanner, and rescores by CVSS', async () => {
    const out = normaliseFindings({ findings: walkThrough(), compliance: [], catalog: await loadRulesets() });
    expect(out.merged).toEqual({ duplicates: 1, equivalent_checks: 1 });
    expect(out.rescored).toBe(1);
    expect(
      out.findings.map((f) => [
        f.id,
        f.severity,
        findingRiskScore(f),
        f.source_tool,
        f.also_reported_by ?? null,
      ]),
    ).toEqual([
      // The first copy survives (its id and suppression), with the worse severity of the two scanners.
      ['p1', 'HIGH', 7.5, 'prowler', ['trivy']],
      ['t2', 'CRITICAL', 9.7, 'trivy', null],
      ['c1', 'LOW', 2.5, 'custom', null],
    ]);
  });

  it('maps exact checks to ruleset controls, and only unplaced findings to patterns', async () => {
    const out = normaliseFindings({ findings: walkThrough(), compliance: [], catalog: await loadRulesets() });
    const [bucket, cve, trail] = out.findings;
    // s3_bucket_default_encryption is a check of 28 controls in eight AWS frameworks.
    expect(bucket?.compliance_frameworks).toEqual([
      'GDPR-AWS',
      'HIPAA-AWS',
      'ISO27001-AWS',
      'MITRE-ATTACK-AWS',
      'NIST-800-53-Revision-5-AWS',
      'NIST-CSF-AWS',
      'PCI-AWS',
      'SOC2-AWS',
    ]);
    expect(out.compliance.filter((c) => c.finding_ids.includes('p1'))).toHaveLength(28);
    expect(
      out.compliance.find((c) => c.framework === 'NIST-CSF-AWS' && c.control_id === 'ds_1'),
    ).toMatchObject({
      control_title: 'Data-at-rest is protected.',
      status: 'FAIL',
      finding_ids: ['p1'],
    });
    expect(cve?.compliance_frameworks).toEqual(['HIPAA', 'NIST-800-53', 'PCI-DSS', 'SOC2']);
    expect(out.compliance.find((c) => c.control_id === 'PCI-DSS/CVE-2024-0001')).toMatchObject({
      framework: 'PCI-DSS',
      control_title: 'PCI-DSS: findings of scanner check CVE-2024-0001',
    });
    expect(trail?.compliance_frameworks.slice(0, 4)).toEqual(['GDPR', 'HIPAA', 'ISO-27001', 'NIST-800-53']);
    expect(out.compliance.find((c) => c.control_id === 'GDPR-aggregate')).toMatchObject({
      control_title: 'GDPR: findings without a specific control',
      finding_ids: ['c1'],
    });
    expect(out.compliance.every((c) => c.status === 'FAIL')).toBe(true);
    expect(out.compliance).toHaveLength(38);
  });

  it('keeps findings of one scanner, or with different titles, apart', async () => {
    const catalog = await loadRulesets();
    const out = normaliseFindings({
      findings: [
        finding('a', 'prowler', ASFF, 'S3 bucket default encryption', 'MEDIUM'),
        finding('b', 'checkov', 'CKV_AWS_19', 'Ensure S3 bucket has server-side encryption enabled', 'HIGH'),
        finding('c', 'trivy', 'AVD-AWS-0088', 'S3 bucket default encryption', 'LOW', { region: 'eu-west-2' }),
      ],
      compliance: [],
      catalog,
    });
    expect(out.findings.map((f) => f.id)).toEqual(['a', 'b', 'c']);
  });

  it("does not apply one cloud's benchmark patterns to another cloud's resource", async () => {
    const catalog = await loadRulesets();
    const nsg = FindingSchema.parse({
      id: 'n',
      source_tool: 'custom',
      title: 'VPC flow logs not enabled',
      resource_arn: 'arn:aws:ec2:us-east-1:111111111111:vpc/vpc-1',
    });
    const [out] = normaliseFindings({ findings: [nsg], compliance: [], catalog }).findings;
    expect(out?.compliance_frameworks).toContain('CIS-AWS');
    expect(out?.compliance_frameworks).not.toContain('CIS-AZURE');
    expect(out?.compliance_frameworks).not.toContain('CIS-GCP');
  });

  it('stops when the call is cancelled', async () => {
    const catalog = await loadRulesets();
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    expect(() =>
      normaliseFindings({ findings: walkThrough(), compliance: [], catalog, signal: controller.signal }),
    ).toThrow('cancelled');
  });
});

describe('a cancelled normalisation', () => {
  it('leaves the findings it was given exactly as they were', async () => {
    // p1 and p2 are one check read twice: merging them gives p1's copy p2's control.
    const findings = walkThrough().map((f, i) =>
      FindingSchema.parse({ ...f, compliance_controls: [{ framework: 'CIS-AWS', control_id: `2.1.${i}` }] }),
    );
    const before = structuredClone(findings);
    const catalog = await loadRulesets();
    // Cancelled at the first check after deduplication, before anything is swapped in.
    const signal = new AbortController().signal;
    let checks = 0;
    signal.throwIfAborted = () => {
      checks += 1;
      throw new Error('cancelled');
    };
    expect(() => normaliseFindings({ findings, compliance: [], catalog, signal })).toThrow('cancelled');
    expect(checks).toBe(1);
    expect(findings).toEqual(before);
  });
});
