import type { Layer } from '@cloudg/core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { call, readJson, sampleLayer } from './support.js';

let layer: Layer<Workspace>;
beforeEach(async () => {
  ({ layer } = await sampleLayer());
});

describe('findings resources', () => {
  it('cloudg://findings/summary counts open and suppressed findings, by severity and by tool', async () => {
    const summary = await readJson(layer, 'cloudg://findings/summary');
    expect(summary).toEqual({
      dataset: 'sample',
      open_findings: 11,
      suppressed: 1,
      severity_breakdown: { CRITICAL: 2, HIGH: 5, MEDIUM: 2, LOW: 1, INFO: 1 },
      by_tool: { prowler: 5, scoutsuite: 3, trivy: 1, checkov: 1, iam: 1 },
    });
    // Ties keep dataset order, as the reference prints them.
    expect(Object.keys(summary.by_tool as object)).toEqual([
      'prowler',
      'scoutsuite',
      'trivy',
      'checkov',
      'iam',
    ]);
  });

  it('cloudg://findings/{finding_id} is the brief plus description, evidence and remediation', async () => {
    const [content] = await layer.readResource('cloudg://findings/f-ssh-open');
    expect(content).toMatchObject({ uri: 'cloudg://findings/f-ssh-open', mimeType: 'application/json' });
    expect(await readJson(layer, 'cloudg://findings/f-ssh-open')).toEqual({
      id: 'f-ssh-open',
      title: 'Security group allows SSH (22) from 0.0.0.0/0',
      severity: 'CRITICAL',
      risk_score: 9.5,
      source_tool: 'prowler',
      resource_id: 'sg-admin',
      resource_arn: 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0admin',
      asset_id: 'sg-admin',
      asset_name: 'sg-admin',
      compliance_frameworks: ['CIS-AWS', 'PCI-DSS'],
      is_suppressed: false,
      cvss_score: null,
      detected_at: '2026-01-15T12:00:00+00:00',
      uri: 'cloudg://findings/f-ssh-open',
      description: 'Security group allows SSH (22) from 0.0.0.0/0.',
      evidence: 'IpPermissions 0.0.0.0/0 tcp 22',
      remediation: 'Restrict 22 to the VPN.',
    });
  });

  it('resolves the uri of every finding brief a tool returns', async () => {
    const page = await call(layer, 'list_findings', { include_suppressed: true, fields: ['uri'] });
    const uris = (page.items as { id: string; uri: string }[]).map((i) => [i.id, i.uri] as const);
    expect(uris).toHaveLength(12);
    for (const [id, uri] of uris) expect((await readJson(layer, uri)).id).toBe(id);
  });

  it('cloudg://findings/severity/{severity} lists open findings of one severity by risk', async () => {
    const critical = await readJson(layer, 'cloudg://findings/severity/CRITICAL');
    expect(critical).toMatchObject({ dataset: 'sample', severity: 'CRITICAL', total: 2, truncated: false });
    expect((critical.findings as { id: string }[]).map((f) => f.id)).toEqual(['f-rdp-open', 'f-ssh-open']);
    // Any case; suppressed findings stay out (f-versioning is the only LOW besides f-lambda-runtime).
    const low = await readJson(layer, 'cloudg://findings/severity/low');
    expect(low).toMatchObject({ severity: 'LOW', total: 1, findings: [{ id: 'f-lambda-runtime' }] });
  });

  it('is never read as a finding id, and the static summary wins over the template', async () => {
    expect((await readJson(layer, 'cloudg://findings/severity/HIGH')).total).toBe(5);
    expect(await readJson(layer, 'cloudg://findings/summary')).toHaveProperty('by_tool');
  });

  it('fails a read on an unknown severity or finding with -32602', async () => {
    await expect(layer.readResource('cloudg://findings/severity/URGENT')).rejects.toMatchObject({
      code: -32602,
      message: 'Unknown severity; use one of CRITICAL, HIGH, MEDIUM, LOW, INFO',
    });
    await expect(layer.readResource('cloudg://findings/f-nope')).rejects.toMatchObject({
      code: -32602,
      message: 'No finding with that id in this dataset. Use list_findings to browse finding ids.',
    });
  });

  it('follows suppressions', async () => {
    await call(layer, 'suppress_findings', { finding_ids: ['f-rdp-open'], reason: 'jump host retired' });
    expect(await readJson(layer, 'cloudg://findings/summary')).toMatchObject({
      open_findings: 10,
      suppressed: 2,
    });
    expect(await readJson(layer, 'cloudg://findings/severity/CRITICAL')).toMatchObject({ total: 1 });
    expect(await readJson(layer, 'cloudg://findings/f-rdp-open')).toMatchObject({ is_suppressed: true });
  });

  it('carries the findings category and the documented sensitivities', () => {
    const reg = layer.registry;
    expect(reg.resources.get('cloudg://findings/summary')).toMatchObject({
      category: 'findings',
      sensitivity: 'internal',
    });
    const templates = new Map([...reg.templates.values()].map((t) => [t.uriTemplate, t]));
    expect(templates.get('cloudg://findings/{finding_id}')).toMatchObject({ sensitivity: 'confidential' });
    expect(templates.get('cloudg://findings/severity/{severity}')).toMatchObject({
      sensitivity: 'confidential',
    });
  });
});

describe('findings completions', () => {
  it('completes finding ids by prefix, highest risk first', async () => {
    const template = { type: 'ref/resource', uri: 'cloudg://findings/{finding_id}' } as const;
    expect(await layer.complete(template, { name: 'finding_id', value: 'f-r' })).toEqual({
      values: ['f-rdp-open'],
      total: 1,
      hasMore: false,
    });
    const all = await layer.complete(template, { name: 'finding_id', value: 'F-' });
    expect(all.total).toBe(12);
    expect(all.values.slice(0, 3)).toEqual(['f-rdp-open', 'f-ssh-open', 'f-web-cve']);
  });

  it('completes severities by prefix, in severity order', async () => {
    const template = { type: 'ref/resource', uri: 'cloudg://findings/severity/{severity}' } as const;
    expect(await layer.complete(template, { name: 'severity', value: 'h' })).toEqual({
      values: ['HIGH'],
      total: 1,
      hasMore: false,
    });
    expect((await layer.complete(template, { name: 'severity', value: '' })).values).toEqual([
      'CRITICAL',
      'HIGH',
      'MEDIUM',
      'LOW',
      'INFO',
    ]);
  });

  it('completes the incident_triage prompt finding_id the same way', async () => {
    expect(
      await layer.complete(
        { type: 'ref/prompt', name: 'incident_triage' },
        { name: 'finding_id', value: 'f-r' },
      ),
    ).toEqual({ values: ['f-rdp-open'], total: 1, hasMore: false });
  });
});
