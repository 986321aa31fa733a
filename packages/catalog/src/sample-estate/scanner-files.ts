import { createHash } from 'node:crypto';
import type { CloudAsset } from '../model/asset.js';
import type { Finding } from '../model/finding.js';
import type { SampleEstateFacts } from './facts.js';

/**
 * Native scanner output built from the sample estate's findings, one file per format the
 * loaders read. Each file says what the scanner would have said about the same problem, so
 * loading it yields the sample finding again (modulo the scanner's own vocabulary).
 */

const PROWLER_VERSION = '3.16.2';
const OBSERVED = '2026-01-15T12:00:00Z';

function short(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

function assetOf(facts: SampleEstateFacts, f: Finding): CloudAsset | undefined {
  return facts.assets.find(
    (a) => a.id === f.resource_id || a.arn === f.resource_id || a.arn === f.resource_arn,
  );
}

/** A Prowler check id for a sample finding (the scanner's own id when it has one). */
function prowlerCheck(f: Finding): string {
  const own = f.source_finding_id?.match(/^prowler-\w+-(.+?)(?:-\d+)?$/)?.[1];
  return (
    own ??
    f.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
  );
}

/** Requirement strings in Prowler's ASFF form: `<framework-version> <requirement>...`. */
function requirementsOf(facts: SampleEstateFacts, f: Finding): string[] {
  const out: string[] = [];
  for (const c of facts.compliance) {
    if (!c.finding_ids.includes(f.id)) continue;
    out.push(`${frameworkVersionTag(c.framework)} ${c.control_id}`);
  }
  return out;
}

function frameworkVersionTag(framework: string): string {
  switch (framework) {
    case 'CIS-AWS':
      return 'CIS-2.0';
    case 'PCI-DSS':
      return 'PCI-3.2.1';
    case 'NIST-800-53':
      return 'NIST-800-53-Revision-5';
    default:
      return framework;
  }
}

function asffResourceType(a: CloudAsset | undefined): string {
  switch (a?.asset_type) {
    case 'SECURITY_GROUP':
      return 'AwsEc2SecurityGroup';
    case 'EC2':
      return 'AwsEc2Instance';
    case 'RDS_INSTANCE':
      return 'AwsRdsDbInstance';
    case 'S3_BUCKET':
      return 'AwsS3Bucket';
    case 'VPC':
      return 'AwsEc2Vpc';
    default:
      return 'Other';
  }
}

export function asffRecord(facts: SampleEstateFacts, f: Finding): Record<string, unknown> {
  const a = assetOf(facts, f);
  const account = a?.account_id ?? f.account_id ?? '111111111111';
  const region = a && a.region !== 'global' ? a.region : 'us-east-1';
  const check = prowlerCheck(f);
  const resource = f.resource_arn ?? a?.arn ?? f.resource_id ?? '';
  return {
    SchemaVersion: '2018-10-08',
    Id: `prowler-${check}-${account}-${region}-${short(resource)}`,
    ProductArn: `arn:aws:securityhub:${region}::product/prowler/prowler`,
    RecordState: 'ACTIVE',
    ProductFields: {
      ProviderName: 'Prowler',
      ProviderVersion: PROWLER_VERSION,
      ProwlerResourceName: a?.name ?? '',
    },
    GeneratorId: `prowler-${check}`,
    AwsAccountId: account,
    Types: ['Software and Configuration Checks'],
    FirstObservedAt: OBSERVED,
    UpdatedAt: OBSERVED,
    CreatedAt: OBSERVED,
    Severity: { Label: f.severity === 'INFO' ? 'INFORMATIONAL' : f.severity },
    Title: f.title,
    Description: f.description,
    Resources: [{ Type: asffResourceType(a), Id: resource, Partition: 'aws', Region: region }],
    Compliance: { Status: 'FAILED', RelatedRequirements: requirementsOf(facts, f) },
    Remediation: { Recommendation: { Text: f.remediation ?? '', Url: 'https://hub.prowler.com/' } },
  };
}

const OCSF_SEVERITY: Record<string, [number, string]> = {
  INFO: [1, 'Informational'],
  LOW: [2, 'Low'],
  MEDIUM: [3, 'Medium'],
  HIGH: [4, 'High'],
  CRITICAL: [5, 'Critical'],
};

/** A Prowler 4 OCSF detection finding (`-M json-ocsf`). */
export function ocsfRecord(facts: SampleEstateFacts, f: Finding): Record<string, unknown> {
  const a = assetOf(facts, f);
  const provider = (a?.provider ?? 'AWS').toLowerCase();
  const check = prowlerCheck(f);
  const [severityId, severity] = OCSF_SEVERITY[f.severity] ?? [3, 'Medium'];
  const compliance: Record<string, string[]> = {};
  for (const c of facts.compliance) {
    if (!c.finding_ids.includes(f.id)) continue;
    const tag = frameworkVersionTag(c.framework);
    compliance[tag] = [...(compliance[tag] ?? []), c.control_id];
  }
  return {
    message: f.description,
    metadata: {
      event_code: check,
      product: { name: 'Prowler', vendor_name: 'Prowler', version: '4.5.0' },
      version: '1.3.0',
    },
    severity_id: severityId,
    severity,
    status: 'New',
    status_code: 'FAIL',
    status_detail: f.description,
    activity_id: 1,
    activity_name: 'Create',
    type_uid: 200401,
    type_name: 'Detection Finding: Create',
    category_uid: 2,
    class_uid: 2004,
    finding_info: {
      uid: `prowler-${provider}-${check}-${a?.account_id ?? 'unknown'}-${a?.region ?? 'global'}-${a?.name ?? f.resource_id}`,
      title: f.title,
      desc: f.description,
      created_time: 1768478400,
      created_time_dt: OBSERVED,
      types: ['Software and Configuration Checks'],
    },
    resources: [
      {
        uid: f.resource_arn ?? a?.arn ?? f.resource_id,
        name: a?.name ?? f.resource_id,
        region: a?.region ?? 'global',
        type: asffResourceType(a),
        cloud_partition: provider === 'aws' ? 'aws' : undefined,
        labels: [],
        data: {},
      },
    ],
    cloud: {
      account: { uid: a?.account_id ?? '', type: provider === 'aws' ? 'AWS Account' : 'Project' },
      provider,
      region: a?.region ?? 'global',
    },
    remediation: { desc: f.remediation ?? '', references: [] },
    unmapped: { compliance },
    time: 1768478400,
    time_dt: OBSERVED,
  };
}

/** The one-record ASFF file of the reference's examples: an HTTP check on `sg-web`. */
export function sgWebAsff(facts: SampleEstateFacts): Record<string, unknown>[] {
  const sg = facts.assets.find((a) => a.id === 'sg-web');
  const finding: Finding = {
    id: 'asff-sg-web',
    title: 'Security group allows HTTP (80) from 0.0.0.0/0',
    description: 'Security group sg-web allows ingress from 0.0.0.0/0 to port 80.',
    severity: 'MEDIUM',
    source_tool: 'prowler',
    resource_id: sg?.id ?? 'sg-web',
    resource_arn: sg?.arn ?? null,
    resource_type: null,
    region: 'us-east-1',
    account_id: '111111111111',
    compliance_frameworks: ['CIS-AWS'],
    is_suppressed: false,
    suppression_reason: null,
    cvss_score: null,
    detected_at: null,
    evidence: null,
    remediation: 'Serve HTTPS only and close port 80.',
    source_finding_id: 'prowler-aws-ec2_securitygroup_allow_ingress_from_internet_to_port_80-1',
  };
  const record = asffRecord(facts, finding);
  record.Compliance = { Status: 'FAILED', RelatedRequirements: ['CIS-2.0 5.2'] };
  return [record];
}

function scoutsuiteLevel(f: Finding): string {
  return f.severity === 'CRITICAL' || f.severity === 'HIGH' ? 'danger' : 'warning';
}

/**
 * ScoutSuite results, one file per provider run: `scoutsuite_results_<id>.js`, a JavaScript
 * assignment wrapping the JSON. Flagged items are dotted paths to the resource.
 */
export function scoutsuiteFiles(facts: SampleEstateFacts): Record<string, string> {
  const runs = new Map<string, { provider: string; account: string; services: Record<string, unknown> }>();
  for (const f of facts.findings) {
    if (f.source_tool !== 'scoutsuite') continue;
    const a = assetOf(facts, f);
    const provider = (a?.provider ?? 'AWS').toLowerCase();
    const account = a?.account_id ?? f.resource_arn?.split(':')[4] ?? '111111111111';
    const key = `${provider}-${provider === 'aws' ? account || '111111111111' : account}`;
    let run = runs.get(key);
    if (!run) {
      run = { provider, account: account || '111111111111', services: {} };
      runs.set(key, run);
    }
    const isNsg = a?.asset_type === 'NSG';
    const service = isNsg ? 'network' : 's3';
    const resourceName = a?.name ?? f.resource_id?.split(':').pop() ?? '';
    const item = isNsg
      ? `network.subscriptions.${run.account}.network_security_groups.${resourceName}.security_rules.allow-rdp`
      : `s3.buckets.${resourceName}`;
    const checkKey = isNsg
      ? 'network-security-group-rdp-port-open-to-internet'
      : f.title.toLowerCase().includes('public')
        ? 's3-bucket-AllUsers-read'
        : 's3-bucket-no-lifecycle';
    if (!run.services[service]) run.services[service] = { findings: {} };
    const svc = run.services[service] as { findings: Record<string, unknown> };
    const controls = facts.compliance.filter((c) => c.finding_ids.includes(f.id));
    svc.findings[checkKey] = {
      description: f.title,
      rationale: f.description,
      remediation: f.remediation,
      service: isNsg ? 'Network' : 'S3',
      dashboard_name: isNsg ? 'Network Security Groups' : 'Buckets',
      level: scoutsuiteLevel(f),
      path: isNsg ? 'network.subscriptions.id.network_security_groups.id' : 's3.buckets.id',
      checked_items: isNsg ? 1 : 3,
      flagged_items: 1,
      items: [item],
      compliance: controls.map((c) => ({
        name: c.framework.startsWith('CIS')
          ? `CIS ${isNsg ? 'Microsoft Azure' : 'Amazon Web Services'} Foundations`
          : c.framework,
        version: isNsg ? '1.3.0' : '1.2.0',
        reference: c.control_id,
      })),
    };
  }
  const files: Record<string, string> = {};
  for (const [key, run] of runs) {
    const results = {
      provider_code: run.provider,
      provider_name: run.provider === 'aws' ? 'Amazon Web Services' : 'Microsoft Azure',
      account_id: run.account,
      last_run: { time: '2026-01-15 12:00:00+0000', version: '5.14.0', ruleset_name: 'default' },
      services: run.services,
    };
    files[`scoutsuite_results_${key}.js`] = `scoutsuite_results =\n${JSON.stringify(results, null, 2)}\n`;
  }
  return files;
}

/** Checkov's `results_json.json` for the Terraform of the sample's Lambda function. */
export function checkovResults(facts: SampleEstateFacts): Record<string, unknown> {
  const failed = facts.findings
    .filter((f) => f.source_tool === 'checkov')
    .map((f) => {
      const a = assetOf(facts, f);
      return {
        check_id: f.source_finding_id,
        bc_check_id: null,
        check_name: f.title,
        check_result: { result: 'FAILED', evaluated_keys: ['runtime'] },
        code_block: [],
        file_path: '/lambda.tf',
        file_line_range: [1, 14],
        resource: `aws_lambda_function.${a?.name ?? f.resource_id}`,
        severity: f.severity,
        guideline: 'https://docs.prismacloud.io/en/enterprise-edition/policy-reference/aws-policies',
        description: f.description,
      };
    });
  const passed = [
    {
      check_id: 'CKV_AWS_45',
      check_name: 'Ensure there are no secrets in Lambda environment variables',
      check_result: { result: 'PASSED' },
      file_path: '/lambda.tf',
      file_line_range: [1, 14],
      resource: 'aws_lambda_function.api-handler',
      severity: null,
    },
  ];
  return {
    check_type: 'terraform',
    results: { passed_checks: passed, failed_checks: failed, skipped_checks: [], parsing_errors: [] },
    summary: {
      passed: passed.length,
      failed: failed.length,
      skipped: 0,
      parsing_errors: 0,
      resource_count: 1,
      checkov_version: '3.2.255',
    },
  };
}

/** A Trivy VM scan report of `web-1` holding the sample's CVE. */
export function trivyReport(facts: SampleEstateFacts): Record<string, unknown> {
  const vulns = facts.findings
    .filter((f) => f.source_tool === 'trivy')
    .map((f) => {
      const [, pkg = 'unknown', version = ''] = /^\S+ in (\S+) (\S+)$/.exec(f.title) ?? [];
      return {
        VulnerabilityID: f.source_finding_id,
        PkgName: pkg,
        InstalledVersion: version,
        FixedVersion: '3.0.14',
        Severity: f.severity,
        Title: `${pkg}: ${f.description}`,
        Description: f.description,
        PrimaryURL: `https://avd.aquasec.com/nvd/${(f.source_finding_id ?? '').toLowerCase()}`,
        CVSS: { nvd: { V3Score: f.cvss_score } },
      };
    });
  return {
    SchemaVersion: 2,
    CreatedAt: OBSERVED,
    ArtifactName: 'web-1',
    ArtifactType: 'vm',
    Metadata: { OS: { Family: 'ubuntu', Name: '22.04' } },
    Results: [{ Target: 'web-1 (ubuntu 22.04)', Class: 'os-pkgs', Type: 'ubuntu', Vulnerabilities: vulns }],
  };
}

/** Prowler findings of the sample as JSON Lines of ASFF records (one per line). */
export function prowlerJsonLines(facts: SampleEstateFacts): string {
  const records = facts.findings.filter((f) => f.source_tool === 'prowler').map((f) => asffRecord(facts, f));
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}
