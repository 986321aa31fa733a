import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogLayer,
  NoDatasetError,
  ReferenceNotFoundError,
  type Workspace,
} from '../../src/index.js';
import { workspaceAt } from '../support/estate.js';
import { contextOf, embeddedOf, promptLayer, textOf } from './support.js';

const PROMPTS: [string, string[], string[], string][] = [
  ['security_posture_review', ['dataset'], [], 'confidential'],
  ['executive_summary', ['dataset'], [], 'internal'],
  ['attack_surface_report', ['dataset'], [], 'confidential'],
  ['investigate_asset', ['ref', 'dataset'], ['ref'], 'confidential'],
  ['blast_radius_assessment', ['ref', 'dataset'], ['ref'], 'confidential'],
  ['change_impact_analysis', ['ref', 'change', 'dataset'], ['ref'], 'confidential'],
  ['cross_account_trust_review', ['dataset'], [], 'confidential'],
  ['compliance_gap_analysis', ['framework', 'dataset'], ['framework'], 'confidential'],
  ['remediation_plan', ['severity', 'dataset'], [], 'confidential'],
  ['incident_triage', ['finding_id', 'dataset'], ['finding_id'], 'confidential'],
  ['drift_review', ['base', 'target'], ['base'], 'confidential'],
];

/** Values from the workspace that must never appear in a task message (`after` is also plain English). */
const WORKSPACE_VALUES = ['sample', 'baseline', 'orders-db', 'kms-main', 'sg-app', 'f-ssh-open', 'PCI-DSS'];

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await promptLayer());
});

describe('prompt definitions', () => {
  it('lists the eleven prompts in order with their arguments, required flags, sensitivity and workflow tag', () => {
    const wire = layer.promptsWire();
    expect(wire.map((p) => p.name)).toEqual(PROMPTS.map(([name]) => name));
    for (const [name, args, required, sensitivity] of PROMPTS) {
      const entry = wire.find((p) => p.name === name) as {
        arguments: { name: string; required: boolean }[];
        _meta: Record<string, unknown>;
      };
      expect(entry.arguments.map((a) => a.name)).toEqual(args);
      expect(entry.arguments.filter((a) => a.required).map((a) => a.name)).toEqual(required);
      expect(entry._meta).toEqual({
        'cloudg/category': 'prompts',
        'cloudg/sensitivity': sensitivity,
        'cloudg/tags': ['workflow'],
      });
    }
  });
});

describe('prompt failures', () => {
  it('returns one message on how to load data when nothing is loaded (drift_review raises)', async () => {
    const empty = createCatalogLayer({ workspace: workspaceAt('/tmp') });
    const result = await empty.getPrompt('security_posture_review', {});
    expect(result.description).toBe('Security posture review');
    expect(result.messages).toHaveLength(1);
    expect(textOf(result.messages[0]?.content)).toMatch(
      /^No cloudg dataset is loaded yet\. .*`load_dataset\(path=\.\.\.\)`/,
    );
    await expect(empty.getPrompt('drift_review', { base: 'x' })).rejects.toBeInstanceOf(NoDatasetError);
  });

  it('raises for a missing required argument, an unknown asset or an unknown dataset', async () => {
    await expect(layer.getPrompt('investigate_asset', {})).rejects.toThrow(
      'Missing required prompt arguments: ref',
    );
    const unknownAsset = layer.getPrompt('investigate_asset', { ref: 'web-9' });
    await expect(unknownAsset).rejects.toBeInstanceOf(ReferenceNotFoundError);
    await expect(unknownAsset).rejects.toThrow(
      'No asset matches the reference in this dataset. 5 close matches are listed with this error. Use find_assets(query=...) to search by name, ARN or tag.',
    );
    const unknownDataset = layer.getPrompt('executive_summary', { dataset: 'nope' });
    await expect(unknownDataset).rejects.toBeInstanceOf(NoDatasetError);
    await expect(unknownDataset).rejects.toThrow(
      'No such dataset. 3 dataset(s) are loaded: they are listed with this error, or call list_datasets.',
    );
  });

  it('remediation_plan checks the severity before doing any work', async () => {
    await expect(layer.getPrompt('remediation_plan', { severity: 'urgent' })).rejects.toThrow(
      /^Unknown severity\. .*Valid values: CRITICAL, HIGH, MEDIUM, LOW, INFO$/,
    );
  });
});

describe('prompt messages against the sample estate', () => {
  it('security_posture_review: five riskiest assets, framework posture, embedded summary', async () => {
    const result = await layer.getPrompt('security_posture_review', {});
    expect(result.messages.every((m) => m.role === 'user')).toBe(true);
    const context = contextOf(result);
    expect(context.dataset).toBe('sample');
    const risks = context.top_risks as Record<string, unknown>[];
    expect(risks).toHaveLength(5);
    expect(risks.slice(0, 2)).toEqual([
      {
        asset: 'jump-nsg',
        id: 'az-nsg',
        type: 'NSG',
        score: 16.39,
        internet_exposed: false,
        top_finding: 'NSG allows RDP (3389) from Internet',
      },
      {
        asset: 'sg-admin',
        id: 'sg-admin',
        type: 'SECURITY_GROUP',
        score: 16.39,
        internet_exposed: false,
        top_finding: 'Security group allows SSH (22) from 0.0.0.0/0',
      },
    ]);
    const compliance = context.compliance as Record<string, unknown>[];
    expect(compliance).toHaveLength(5);
    expect(compliance.slice(0, 2)).toEqual([
      {
        framework: 'CIS-AWS',
        controls_evaluated: 4,
        controls_failing: 3,
        controls_passing: 1,
        controls_other: 0,
        pass_rate: 25,
        open_findings: 6,
        severity_breakdown: { CRITICAL: 1, HIGH: 3, MEDIUM: 2 },
        affected_assets: 5,
        uri: 'cloudg://compliance/CIS-AWS',
      },
      {
        framework: 'PCI-DSS',
        controls_evaluated: 1,
        controls_failing: 1,
        controls_passing: 0,
        controls_other: 0,
        pass_rate: 0,
        open_findings: 3,
        severity_breakdown: { CRITICAL: 1, HIGH: 2 },
        affected_assets: 3,
        uri: 'cloudg://compliance/PCI-DSS',
      },
    ]);
    const embedded = embeddedOf(result);
    expect(embedded.uri).toBe('cloudg://datasets/sample/summary');
    const [served] = await layer.readResource('cloudg://datasets/sample/summary');
    expect(embedded.data).toEqual(JSON.parse((served as { text: string }).text));
    expect(embedded.data).toMatchObject({ total_assets: 44, total_edges: 56, open_findings: 11 });
  });

  it('executive_summary: the overview figures', async () => {
    const context = contextOf(await layer.getPrompt('executive_summary', {}));
    expect(context).toMatchObject({
      dataset: 'sample',
      providers: ['aws', 'azure', 'gcp'],
      total_assets: 44,
      total_edges: 56,
      open_findings: 11,
      severity_breakdown: { CRITICAL: 2, HIGH: 5, MEDIUM: 2, LOW: 1, INFO: 1 },
      accounts: 5,
      regions: 5,
      internet_exposed: 6,
      cross_account_edges: 3,
    });
    expect((context.compliance_frameworks as string[]).slice(0, 3)).toEqual([
      'CIS-AWS',
      'CIS-Azure',
      'CIS-GCP',
    ]);
  });

  it('attack_surface_report: exposed count, exposed by type and the first exposed briefs', async () => {
    const result = await layer.getPrompt('attack_surface_report', {});
    const context = contextOf(result);
    expect(context.internet_exposed_total).toBe(6);
    expect(context.exposed_by_type).toEqual({
      LOAD_BALANCER: 1,
      EC2: 1,
      S3_BUCKET: 1,
      API_GATEWAY: 1,
      VIRTUAL_MACHINE: 1,
      GCS_BUCKET: 1,
    });
    const sample = context.exposed_sample as Record<string, unknown>[];
    expect(sample).toHaveLength(6);
    expect(sample[1]).toEqual({
      id: 'bastion',
      name: 'bastion',
      type: 'EC2',
      provider: 'AWS',
      region: 'us-east-1',
      account_id: '111111111111',
      arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0bast',
      internet_exposed: true,
      open_findings: 1,
      max_severity: 'HIGH',
      uri: 'cloudg://assets/bastion',
    });
  });

  it('investigate_asset: the dataset in the context and the asset resource embedded', async () => {
    const result = await layer.getPrompt('investigate_asset', { ref: 'orders-db' });
    expect(contextOf(result)).toEqual({ dataset: 'sample' });
    const embedded = embeddedOf(result);
    expect(embedded.uri).toBe('cloudg://assets/orders-db');
    const [served] = await layer.readResource('cloudg://assets/orders-db');
    expect(embedded.data).toEqual(JSON.parse((served as { text: string }).text));
    expect(embedded.data).toMatchObject({
      id: 'orders-db',
      type: 'RDS_INSTANCE',
      tags: { env: 'prod', data: 'pii' },
      relations: { outgoing: { ATTACHED_TO: 1, REFERENCES: 1 }, incoming: { CONTAINS: 1, GRANTS_ACCESS: 1 } },
      metadata_keys: ['backup_retention', 'engine'],
      dependencies: { direct_depends_on: 3, direct_dependents: 1 },
    });
    expect((embedded.data.findings as { id: string }[]).map((f) => f.id)).toEqual(['f-db-backup']);
  });

  it('investigate_asset on a dataset that is not active carries the asset detail in the context', async () => {
    const result = await layer.getPrompt('investigate_asset', { ref: 'orders-db', dataset: 'after' });
    expect(result.messages).toHaveLength(2);
    const context = contextOf(result);
    expect(context.dataset).toBe('after');
    expect(context.asset_detail).toMatchObject({ id: 'orders-db', name: 'orders-db' });
  });

  it('blast_radius_assessment: transitive dependents, accounts affected and direct dependents', async () => {
    const result = await layer.getPrompt('blast_radius_assessment', { ref: 'kms-main' });
    const context = contextOf(result);
    expect(context.asset).toMatchObject({ id: 'kms-main', name: 'prod-main-key', type: 'KMS_KEY' });
    expect(context.transitive_dependents).toBe(12);
    expect(context.accounts_affected).toEqual(['111111111111']);
    expect((context.direct_dependents as { id: string }[]).map((a) => a.id)).toEqual([
      'api-handler',
      'data-bucket',
      'orders-db',
      'db-secret',
    ]);
    expect(embeddedOf(result).data).toMatchObject({
      id: 'kms-main',
      relations: { outgoing: {}, incoming: { REFERENCES: 4 } },
      dependencies: { direct_depends_on: 0, direct_dependents: 4 },
    });
  });

  it('change_impact_analysis: the planned change and direct dependencies both ways', async () => {
    const result = await layer.getPrompt('change_impact_analysis', {
      ref: 'sg-app',
      change: 'remove port 5432 ingress',
    });
    const context = contextOf(result);
    expect(context.planned_change).toBe('remove port 5432 ingress');
    expect(context.depends_on).toEqual([]);
    expect((context.dependents as { id: string }[]).map((a) => a.id)).toEqual(['web-1', 'web-2']);
    expect(textOf(result.messages[0]?.content)).not.toContain('5432');
    expect(embeddedOf(result).uri).toBe('cloudg://assets/sg-app');
  });

  it('cross_account_trust_review: crossing edges per account pair and edge type', async () => {
    const context = contextOf(await layer.getPrompt('cross_account_trust_review', {}));
    expect(context).toEqual({
      dataset: 'sample',
      cross_account_edges: 3,
      external: 1,
      by_account_pair: {
        '111111111111 -> 222222222222 (IAM_TRUST)': 1,
        '999999999999 -> 222222222222 (IAM_TRUST)': 1,
        '111111111111 -> 222222222222 (USES_IMAGE)': 1,
      },
    });
  });

  it('compliance_gap_analysis: the framework posture and its failing controls', async () => {
    const result = await layer.getPrompt('compliance_gap_analysis', { framework: 'pci-dss' });
    const context = contextOf(result);
    expect(context.framework).toBe('PCI-DSS');
    // Embedded when a compliance resource serves it, else carried in the context.
    const detail =
      result.messages.length > 2
        ? embeddedOf(result).data
        : (context.framework_detail as Record<string, unknown>);
    expect(detail.posture).toEqual([
      expect.objectContaining({ framework: 'PCI-DSS', controls_failing: 1, pass_rate: 0, open_findings: 3 }),
    ]);
    expect(detail.failing_controls).toEqual([
      {
        framework: 'PCI-DSS',
        control_id: '1.3.1',
        control_title: 'Inbound traffic restricted',
        open_findings: 2,
        max_severity: 'CRITICAL',
      },
    ]);
  });

  it('compliance_gap_analysis with a framework the dataset does not know shows every posture', async () => {
    const context = contextOf(await layer.getPrompt('compliance_gap_analysis', { framework: 'HIPAA' }));
    expect(context.framework).toBe('HIPAA');
    expect((context.posture as { framework: string }[]).map((p) => p.framework)).toHaveLength(5);
  });

  it('remediation_plan: HIGH by default, the riskiest assets at or above the severity', async () => {
    const byDefault = await layer.getPrompt('remediation_plan', {});
    expect(contextOf(byDefault).min_severity).toBe('HIGH');
    expect(textOf(byDefault.messages[0]?.content)).toContain("list_findings(min_severity='HIGH', limit=100)");
    const critical = contextOf(await layer.getPrompt('remediation_plan', { severity: 'critical' }));
    expect(critical.min_severity).toBe('CRITICAL');
    expect((critical.top_risks as { id: string; score: number }[]).map((r) => [r.id, r.score])).toEqual([
      ['az-nsg', 16.39],
      ['sg-admin', 16.39],
    ]);
  });

  it('incident_triage: the severity in the task, the affected asset and the finding detail', async () => {
    const result = await layer.getPrompt('incident_triage', { finding_id: 'f-ssh-open' });
    expect(textOf(result.messages[0]?.content)).toMatch(/^Triage the finding in the context \(CRITICAL\)/);
    const context = contextOf(result);
    expect(context).toMatchObject({ dataset: 'sample', target_ref: 'sg-admin' });
    const finding = result.messages.length > 2 ? embeddedOf(result).data : (context.finding as object);
    expect(finding).toMatchObject({
      id: 'f-ssh-open',
      severity: 'CRITICAL',
      risk_score: 9.5,
      asset_id: 'sg-admin',
      description: 'Security group allows SSH (22) from 0.0.0.0/0.',
      evidence: 'IpPermissions 0.0.0.0/0 tcp 22',
      remediation: 'Restrict 22 to the VPN.',
    });
  });

  it('drift_review: the diff of base and target, 25 items a section, nothing embedded', async () => {
    const result = await layer.getPrompt('drift_review', { base: 'baseline', target: 'after' });
    expect(result.messages).toHaveLength(2);
    const context = contextOf(result) as Record<string, Record<string, Record<string, unknown>>>;
    expect(context.base).toBe('baseline');
    expect(context.target).toBe('after');
    expect(context.assets?.removed).toMatchObject({
      count: 1,
      items: [{ id: 'waf-web', type: 'WAF_WEB_ACL' }],
    });
    expect(context.assets?.changed).toMatchObject({
      count: 1,
      items: [{ id: 'web-2', changed_fields: ['internet_exposed', 'tags'] }],
    });
    expect(context.assets?.unchanged).toBe(42);
    expect(context.findings?.resolved).toMatchObject({ count: 1, items: [{ id: 'f-ssh-open' }] });
    expect(context.findings?.severity_changed).toMatchObject({
      items: [{ id: 'f-db-backup', severity: 'HIGH', severity_before: 'MEDIUM' }],
    });
    expect(context.newly_internet_exposed).toMatchObject({ count: 1 });
  });

  it('never puts workspace values or the caller arguments in the task message', async () => {
    const calls: [string, Record<string, string>][] = [
      ['security_posture_review', {}],
      ['executive_summary', { dataset: 'sample' }],
      ['attack_surface_report', {}],
      ['investigate_asset', { ref: 'orders-db' }],
      ['blast_radius_assessment', { ref: 'kms-main' }],
      ['change_impact_analysis', { ref: 'sg-app', change: 'open port 5432' }],
      ['cross_account_trust_review', {}],
      ['compliance_gap_analysis', { framework: 'PCI-DSS' }],
      ['remediation_plan', {}],
      ['incident_triage', { finding_id: 'f-ssh-open' }],
      ['drift_review', { base: 'baseline', target: 'after' }],
    ];
    for (const [name, args] of calls) {
      const task = textOf((await layer.getPrompt(name, args)).messages[0]?.content);
      for (const value of WORKSPACE_VALUES) expect(task, `${name} task`).not.toContain(value);
    }
  });
});

describe('prompt argument completions', () => {
  const prompt = (name: string) => ({ type: 'ref/prompt', name }) as const;

  it('completes a framework to the dataset frameworks containing the text', async () => {
    expect(
      await layer.complete(prompt('compliance_gap_analysis'), { name: 'framework', value: 'CIS' }),
    ).toEqual({
      values: ['CIS-AWS', 'CIS-Azure', 'CIS-GCP'],
      total: 3,
      hasMore: false,
    });
  });

  it('completes asset refs against the active dataset or the one in the context arguments', async () => {
    expect(await layer.complete(prompt('investigate_asset'), { name: 'ref', value: 'orders' })).toEqual({
      values: ['orders-db', 'orders-db-credentials'],
      total: 2,
      hasMore: false,
    });
    const inAfter = await layer.complete(
      prompt('investigate_asset'),
      { name: 'ref', value: 'web' },
      { contextArguments: { dataset: 'after' } },
    );
    expect(inAfter.total).toBe(5);
    expect(inAfter.values).not.toContain('web-acl');
  });

  it('completes finding ids, severities and dataset names; `change` has no completer', async () => {
    expect(
      (await layer.complete(prompt('incident_triage'), { name: 'finding_id', value: 'f-r' })).values,
    ).toEqual(['f-rdp-open']);
    expect(
      (await layer.complete(prompt('remediation_plan'), { name: 'severity', value: 'h' })).values,
    ).toEqual(['HIGH']);
    expect((await layer.complete(prompt('drift_review'), { name: 'base', value: 'B' })).values).toEqual([
      'baseline',
    ]);
    expect(
      (await layer.complete(prompt('change_impact_analysis'), { name: 'change', value: '' })).values,
    ).toEqual([]);
  });
});
