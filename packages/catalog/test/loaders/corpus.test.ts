/**
 * The loaders on real scanner output: every file of test/fixtures/scanners (sources in its
 * README), read as a user would with `kind: "auto"` and with the tool named.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadKind } from '../../src/loaders/load.js';
import { loadPath } from '../../src/loaders/load.js';
import type { Finding } from '../../src/model/finding.js';

const corpus = join(import.meta.dirname, '../fixtures/scanners');
const ASFF_286 = 'prowler/v3-asff-286-failed.asff.json';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'cloudg-corpus-'));
  // The one large file is kept gzipped in the repository.
  await mkdir(join(work, 'prowler'));
  await writeFile(join(work, ASFF_286), gunzipSync(await readFile(join(corpus, `${ASFF_286}.gz`))));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const at = (rel: string) => (rel === ASFF_286 ? join(work, rel) : join(corpus, rel));

/** Where the n-th (1-based) occurrence of `needle` starts. */
function nthIndex(text: string, needle: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i += 1) at = text.indexOf(needle, at + 1);
  return at;
}

function severities(findings: readonly Finding[] | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of findings ?? []) out[f.severity] = (out[f.severity] ?? 0) + 1;
  return out;
}

// file, tool, findings, severity breakdown
const FILES: [string, 'prowler' | 'trivy' | 'checkov' | 'scoutsuite', number, Record<string, number>][] = [
  ['prowler/v2-one.json', 'prowler', 1, { CRITICAL: 1 }],
  ['prowler/v2-many.json', 'prowler', 4, { CRITICAL: 1, HIGH: 1, MEDIUM: 1, LOW: 1 }],
  ['prowler/v3-native-one.json', 'prowler', 1, { HIGH: 1 }],
  ['prowler/v3-native-many.json', 'prowler', 3, { HIGH: 1, MEDIUM: 1, LOW: 1 }],
  [ASFF_286, 'prowler', 286, { CRITICAL: 3, HIGH: 29, MEDIUM: 199, LOW: 55 }],
  ['prowler/v4-ocsf-one.ocsf.json', 'prowler', 1, { HIGH: 1 }],
  ['prowler/v4-ocsf-many.ocsf.json', 'prowler', 3, { HIGH: 3 }],
  ['prowler/v4.5-ocsf-many.ocsf.json', 'prowler', 3, { HIGH: 3 }],
  ['prowler/v5-ocsf-aws.ocsf.json', 'prowler', 2, { MEDIUM: 1, LOW: 1 }],
  ['prowler/v5-ocsf-azure.ocsf.json', 'prowler', 3, { HIGH: 1, MEDIUM: 1, LOW: 1 }],
  ['prowler/v5-ocsf-gcp.ocsf.json', 'prowler', 3, { CRITICAL: 1, MEDIUM: 2 }],
  ['prowler/v5-ocsf-kubernetes.ocsf.json', 'prowler', 3, { MEDIUM: 3 }],
  ['trivy/schema2-image.json', 'trivy', 5, { CRITICAL: 1, HIGH: 1, MEDIUM: 3 }],
  ['trivy/schema2-fs-misconfig-secret.json', 'trivy', 5, { CRITICAL: 2, HIGH: 2, MEDIUM: 1 }],
  ['trivy/schema2-config-dockerfile.json', 'trivy', 1, { HIGH: 1 }],
  ['trivy/schema2-image-all-statuses.json', 'trivy', 7, { LOW: 7 }],
  ['trivy/schema2-sbom-cyclonedx.json', 'trivy', 1, { HIGH: 1 }],
  ['trivy/schema2-repo-secrets.json', 'trivy', 2, { CRITICAL: 1, HIGH: 1 }],
  ['trivy/legacy-mix.json', 'trivy', 7, { HIGH: 6, MEDIUM: 1 }],
  ['trivy/legacy-many.json', 'trivy', 20, { HIGH: 5, MEDIUM: 4, LOW: 11 }],
  ['trivy/k8s-cluster-legacy.json', 'trivy', 20, { MEDIUM: 6, LOW: 14 }],
  ['trivy/k8s-cluster-resources.json', 'trivy', 37, { HIGH: 1, MEDIUM: 5, LOW: 31 }],
  ['checkov/single-1-failed.json', 'checkov', 1, { MEDIUM: 1 }],
  ['checkov/single-many-failed.json', 'checkov', 3, { MEDIUM: 3 }],
  ['checkov/single-severity.json', 'checkov', 4, { HIGH: 1, MEDIUM: 2, LOW: 1 }],
  ['checkov/multi-framework.json', 'checkov', 13, { MEDIUM: 13 }],
  ['scoutsuite/gcp-two-findings.js', 'scoutsuite', 4, { MEDIUM: 4 }],
  ['scoutsuite/scoutsuite_results_aws-trimmed.js', 'scoutsuite', 331, { HIGH: 28, MEDIUM: 303 }],
  ['scoutsuite/scout2-report', 'scoutsuite', 115, { HIGH: 28, MEDIUM: 87 }],
];

describe('every file of the corpus', () => {
  it.each(FILES)('%s: %s, %i findings', async (file, tool, count, breakdown) => {
    for (const kind of ['auto', tool] as LoadKind[]) {
      const outcome = await loadPath(at(file), { kind });
      expect(outcome.kind).toBe(tool);
      expect(outcome.data.findings).toHaveLength(count);
      expect(severities(outcome.data.findings)).toEqual(breakdown);
      expect(outcome.issues).toEqual([]);
      for (const f of outcome.data.findings ?? []) expect(f.source_tool).toBe(tool);
      expect(new Set(outcome.data.findings?.map((f) => f.id)).size).toBe(count);
    }
  });
});

describe('empty reports are empty results, not errors', () => {
  it.each([
    ['prowler/v2-empty.json', 'prowler', 'an empty file'],
    ['prowler/v3-native-empty.json', 'prowler', '[] from Prowler 3'],
    ['prowler/v4-ocsf-empty.ocsf.json', 'prowler', '[] from Prowler 4 OCSF'],
    ['trivy/legacy-no-vuln.json', 'trivy', 'null from Trivy before schema 2'],
    ['trivy/schema2-image-no-vuln.json', 'trivy', 'a schema 2 report without results'],
    ['checkov/single-0-failed.json', 'checkov', 'a report with no failed checks'],
    ['checkov/summary-only-clean.json', 'checkov', "Checkov's bare summary of a clean scan"],
    ['scoutsuite/gcp-no-findings.js', 'scoutsuite', 'a ScoutSuite run that flagged nothing'],
  ])('%s (%s: %s)', async (file, tool) => {
    for (const kind of ['auto', tool] as LoadKind[]) {
      const outcome = await loadPath(at(file), { kind });
      expect(outcome.data.findings).toEqual([]);
      expect(outcome.issues).toEqual([]);
    }
    // Named, the tool is what the dataset says it holds.
    expect((await loadPath(at(file), { kind: tool as LoadKind })).kind).toBe(tool);
  });

  it('takes the kind of an empty OCSF report from its name under auto', async () => {
    expect((await loadPath(at('prowler/v4-ocsf-empty.ocsf.json'))).kind).toBe('prowler');
  });
});

describe('what each format says about the resource', () => {
  it('Prowler 2: the check id from the Control text, the account, region and resource', async () => {
    const { data } = await loadPath(at('prowler/v2-many.json'));
    expect(data.findings?.map((f) => [f.check_id, f.resource_id, f.account_id, f.region])).toEqual([
      ['check114', 'MFA', '012345678912', 'eu-central-1'],
      ['extra796', 'prod-eksc', '012345678912', 'eu-central-1'],
      ['extra794', 'prod-eksc', '012345678912', 'eu-central-1'],
      ['check116', 'dtpa.prod.config_read.iam', '012345678912', 'eu-central-1'],
    ]);
    expect(data.findings?.[0]).toMatchObject({
      title: 'Ensure hardware MFA is enabled for the root account',
      severity: 'CRITICAL',
      description: 'eu-central-1: Only Virtual MFA is enabled for root',
    });
  });

  it('Prowler 3 native: ARN, account, region and the compliance tags as controls', async () => {
    const { data } = await loadPath(at('prowler/v3-native-one.json'));
    expect(data.findings?.[0]).toMatchObject({
      check_id: 'acm_certificates_expiration_check',
      resource_id: 'api.teste.teste.com',
      resource_arn: 'arn:aws:acm:us-east-1:999999999999:certificate/ffffffff-0000-0000-0000-000000000000',
      account_id: '999999999999',
      region: 'us-east-1',
      severity: 'HIGH',
    });
    expect(data.findings?.[0]?.compliance_frameworks).toEqual(
      expect.arrayContaining(['NIST-800-53', 'SOC2', 'HIPAA', 'GDPR']),
    );
  });

  it('Prowler OCSF: the event code as check, the cloud account, the resource region', async () => {
    const { data } = await loadPath(at('prowler/v4.5-ocsf-many.ocsf.json'));
    expect(data.findings?.[0]).toMatchObject({
      check_id: 'iam_role_administratoraccess_policy_permissive_trust_relationship',
      resource_arn: 'arn:aws:iam::123456789012:role/myAdministratorExecutionRole',
      resource_type: 'AwsIamRole',
      account_id: '123456789012',
      region: 'us-east-1',
    });
  });

  it('Prowler 3 ASFF: one check failing in 17 regions is 17 findings', async () => {
    const { data, deduplication } = await loadPath(at(ASFF_286));
    const trail = data.findings?.filter((f) => f.check_id === 'cloudtrail_multi_region_enabled') ?? [];
    expect(trail).toHaveLength(17);
    expect(new Set(trail.map((f) => f.region)).size).toBe(17);
    expect(new Set(trail.map((f) => [f.resource_id, f.account_id].join(' ')))).toEqual(
      new Set(['No trails 123456789012']),
    );
    expect(deduplication).toEqual({ merged: 0, reasons: [] });
  });

  it('Trivy k8s: the workload as resource, account and region from the EKS cluster ARN', async () => {
    const { data } = await loadPath(at('trivy/k8s-cluster-legacy.json'));
    const ids = new Set(data.findings?.map((f) => f.resource_id));
    expect(ids).toEqual(new Set(['default/Deployment/redis-follower', 'default/Deployment/redis-leader']));
    expect(data.findings?.[0]).toMatchObject({
      resource_type: 'Deployment',
      account_id: '576036489467',
      region: 'us-east-1',
    });
  });

  it('Trivy legacy: each result target is the resource', async () => {
    const { data } = await loadPath(at('trivy/legacy-mix.json'));
    expect(new Set(data.findings?.map((f) => f.resource_id)).size).toBeGreaterThan(1);
    for (const f of data.findings ?? []) expect(f.resource_id).toMatch(/\S/);
  });

  it('Trivy: every VEX status but not_affected is a finding', async () => {
    const { data } = await loadPath(at('trivy/schema2-image-all-statuses.json'));
    expect(data.findings?.map((f) => f.check_id)).not.toContain('CVE-2019-18276');
    expect(data.findings).toHaveLength(7);
  });

  it('Trivy secrets: the rule and line, never the matched text', async () => {
    const { data } = await loadPath(at('trivy/schema2-repo-secrets.json'));
    expect(data.findings?.map((f) => [f.check_id, f.severity, f.evidence])).toEqual([
      ['aws-access-key-id', 'CRITICAL', 'deploy.sh line 3'],
      ['mysecret', 'HIGH', 'deploy.sh line 7'],
    ]);
    expect(JSON.stringify(data.findings)).not.toContain('ghp_');
  });

  it('Checkov: resource name and type from the address, file and address as location', async () => {
    const { data } = await loadPath(at('checkov/single-1-failed.json'));
    expect(data.findings?.[0]).toMatchObject({
      check_id: 'CKV_AZURE_42',
      title: 'Ensure the key vault is recoverable',
      resource_id: 'main',
      resource_type: 'azurerm_key_vault',
      location: 'file_path azurerm_key_vault.main',
      evidence: 'file_path:1-16 (azurerm_key_vault.main)',
      severity: 'MEDIUM',
    });
  });

  it('ScoutSuite: one finding per flagged item, with the project the path names', async () => {
    const { data } = await loadPath(at('scoutsuite/gcp-two-findings.js'));
    expect(data.findings?.map((f) => [f.check_id, f.account_id])).toEqual([
      ['cloudstorage-bucket-no-logging', 'gcp-project-id'],
      ['cloudstorage-bucket-no-logging', 'gcp-project-id'],
      ['cloudstorage-bucket-no-versioning', 'gcp-project-id'],
      ['cloudstorage-bucket-no-versioning', 'gcp-project-id'],
    ]);
    expect(data.compliance?.map((c) => `${c.framework} ${c.control_id}`)).toEqual(['CIS-GCP 5.3']);
  });

  it('ScoutSuite AWS: a service not configured in 16 regions is 16 findings', async () => {
    const { data } = await loadPath(at('scoutsuite/scoutsuite_results_aws-trimmed.js'));
    const trail = data.findings?.filter((f) => f.check_id === 'cloudtrail-not-configured') ?? [];
    expect(trail).toHaveLength(16);
    expect(new Set(trail.map((f) => f.region)).size).toBe(16);
    expect(trail[0]).toMatchObject({ account_id: '430150006394', severity: 'HIGH' });
  });
});

describe('deduplication merges only true duplicates, and says why', () => {
  it('merges the flagged paths of one resource (a security group ingress and egress)', async () => {
    const { deduplication } = await loadPath(at('scoutsuite/scoutsuite_results_aws-trimmed.js'));
    expect(deduplication.merged).toBe(25);
    expect(deduplication.reasons).toEqual([
      {
        reason: 'same_check',
        merged: 25,
        description: expect.stringContaining('same check on the same resource'),
      },
    ]);
    const raw = await loadPath(at('scoutsuite/scoutsuite_results_aws-trimmed.js'), { normalise: false });
    expect(raw.data.findings).toHaveLength(356);
    // The merged copies' paths stay in the evidence, one per line.
    const { data } = await loadPath(at('scoutsuite/scoutsuite_results_aws-trimmed.js'));
    const group = data.findings?.find(
      (f) => f.check_id === 'ec2-default-security-group-with-rules' && f.resource_id === 'sg-6569b32b',
    );
    expect(group?.evidence?.split('\n')).toEqual([
      'ec2.regions.ap-northeast-1.vpcs.vpc-0cbc506a.security_groups.sg-6569b32b.rules.ingress.default_with_rules',
      'ec2.regions.ap-northeast-1.vpcs.vpc-0cbc506a.security_groups.sg-6569b32b.rules.egress.default_with_rules',
    ]);
  });

  it('a report read twice (the same file in two places of a directory) loads once', async () => {
    const dir = join(work, 'twice');
    await mkdir(join(dir, 'run-a'), { recursive: true });
    await mkdir(join(dir, 'run-b'), { recursive: true });
    await copyFile(at(ASFF_286), join(dir, 'run-a', 'out.asff.json'));
    await copyFile(at(ASFF_286), join(dir, 'run-b', 'out.asff.json'));
    const outcome = await loadPath(dir, { kind: 'prowler' });
    expect(outcome.data.findings).toHaveLength(286);
    expect(outcome.deduplication).toMatchObject({
      merged: 286,
      reasons: [{ reason: 'same_check', merged: 286 }],
    });
    const raw = await loadPath(dir, { kind: 'prowler', normalise: false });
    expect(raw.data.findings).toHaveLength(572);
  });

  it('one CVE in two packages of one image stays two findings', async () => {
    const { data } = await loadPath(at('trivy/legacy-many.json'));
    const byCve = new Map<string, number>();
    for (const f of data.findings ?? [])
      byCve.set(f.check_id as string, (byCve.get(f.check_id as string) ?? 0) + 1);
    expect([...byCve.values()].some((n) => n > 1)).toBe(true);
  });
});

describe('malformed and partial files', () => {
  it('reads the complete records of a truncated array and reports the rest', async () => {
    const text = await readFile(at('prowler/v3-native-many.json'), 'utf8');
    const cut = join(work, 'cut-native.json');
    await writeFile(cut, text.slice(0, text.lastIndexOf('"CheckID"')));
    const outcome = await loadPath(cut);
    expect(outcome.kind).toBe('prowler');
    expect(outcome.data.findings?.map((f) => f.check_id)).toEqual([
      'acm_certificates_expiration_check',
      'accessanalyzer_enabled',
    ]);
    expect(outcome.issues).toEqual([
      {
        path: cut,
        error:
          'The file ends in the middle of record 3 (truncated); the 2 complete record(s) before it were read.',
      },
    ]);
  });

  it('reads the complete records of a truncated Trivy report and ScoutSuite file', async () => {
    const trivy = await readFile(at('trivy/schema2-image.json'), 'utf8');
    const cutTrivy = join(work, 'cut-trivy.json');
    // Cut inside the fourth of five vulnerabilities.
    await writeFile(cutTrivy, trivy.slice(0, nthIndex(trivy, '"VulnerabilityID"', 4) + 40));
    const t = await loadPath(cutTrivy);
    expect(t.kind).toBe('trivy');
    expect(t.data.findings).toHaveLength(3);
    expect(t.issues).toEqual([{ path: cutTrivy, error: expect.stringContaining('truncated') }]);

    const scout = await readFile(at('scoutsuite/scoutsuite_results_aws-trimmed.js'), 'utf8');
    const cutScout = join(work, 'scoutsuite_results_cut.js');
    await writeFile(cutScout, scout.slice(0, Math.floor(scout.length * 0.6)));
    const s = await loadPath(cutScout);
    expect(s.kind).toBe('scoutsuite');
    expect(s.data.findings?.length).toBeGreaterThan(0);
    expect(s.data.findings?.length).toBeLessThan(331);
    expect(s.issues).toEqual([{ path: cutScout, error: expect.stringContaining('truncated') }]);
  });

  it('reads the good lines of Prowler 2 JSON Lines with a broken line', async () => {
    const lines = (await readFile(at('prowler/v2-many.json'), 'utf8')).trim().split('\n');
    const damaged = join(work, 'v2-damaged.json');
    await writeFile(
      damaged,
      [lines[0], lines[1], '{"Profile":"default","Account Num', ...lines.slice(2)].join('\n'),
    );
    const outcome = await loadPath(damaged);
    expect(outcome.data.findings).toHaveLength(4);
    expect(outcome.issues).toEqual([
      {
        path: damaged,
        error: '1 line(s) are not valid JSON and were skipped (line 3); the other 6 record(s) were read.',
      },
    ]);
  });

  it('lists a directory file that cannot be read and loads the others', async () => {
    const dir = join(work, 'trivy-dir');
    await mkdir(dir, { recursive: true });
    await copyFile(at('trivy/schema2-image.json'), join(dir, 'image.json'));
    await copyFile(at('trivy/legacy-mix.json'), join(dir, 'legacy.json'));
    await writeFile(join(dir, 'broken.json'), '{"SchemaVersion": 2, "Results": [');
    await copyFile(at('checkov/single-1-failed.json'), join(dir, 'not-trivy.json'));
    const outcome = await loadPath(dir, { kind: 'trivy' });
    expect(outcome.data.findings).toHaveLength(12);
    expect(outcome.issues).toEqual([
      { path: join(dir, 'broken.json'), error: expect.stringContaining('not valid JSON') },
      {
        path: join(dir, 'not-trivy.json'),
        error: expect.stringContaining('does not look like trivy output'),
      },
    ]);
  });

  it('reads JSON Lines of generic findings as generic, not as Prowler', async () => {
    const lines = join(work, 'export.jsonl');
    await writeFile(
      lines,
      '{"title": "Open bucket", "severity": "HIGH", "resource_id": "b1"}\n{"title": "Old TLS", "severity": "LOW", "resource_id": "lb1"}\n',
    );
    const outcome = await loadPath(lines);
    expect(outcome.kind).toBe('generic');
    expect(outcome.data.findings?.map((f) => f.title)).toEqual(['Open bucket', 'Old TLS']);
  });

  it('says so when a directory holds no report files of the tool', async () => {
    const dir = join(work, 'only-html');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'report.html'), '<html></html>');
    const outcome = await loadPath(dir, { kind: 'prowler' });
    expect(outcome.data.findings).toEqual([]);
    expect(outcome.issues).toEqual([
      { path: dir, error: 'The directory holds no prowler report files, so nothing was read.' },
    ]);
  });

  it('refuses a single file that holds nothing readable', async () => {
    const junk = join(work, 'junk.json');
    await writeFile(junk, '<html>not a report</html>');
    await expect(loadPath(junk, { kind: 'prowler' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('not valid JSON'),
    });
  });

  it('refuses another tool’s report when a tool is named', async () => {
    await expect(loadPath(at('checkov/single-1-failed.json'), { kind: 'trivy' })).rejects.toMatchObject({
      code: -32602,
      message:
        'The file does not look like trivy output, so it would give no findings. Check which tool wrote it, or load it with kind auto.',
    });
  });
});
