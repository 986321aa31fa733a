import type { Layer } from '@cloudg/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { REACHABILITY_NAMESPACE } from '../../src/findings/reachability.js';
import { uuid5 } from '../../src/findings/uuid5.js';
import type { Workspace } from '../../src/index.js';
import { call, callError, sampleLayer } from './support.js';

let layer: Layer<Workspace>;
let ws: Workspace;
beforeEach(async () => {
  ({ layer, ws } = await sampleLayer());
});

const RDP_OPEN = {
  id: 'f-rdp-open',
  title: 'NSG allows RDP (3389) from Internet',
  severity: 'CRITICAL',
  risk_score: 9.5,
  source_tool: 'scoutsuite',
  resource_id: 'az-nsg',
  resource_arn: null,
  asset_id: 'az-nsg',
  asset_name: 'jump-nsg',
  compliance_frameworks: ['CIS-Azure'],
  is_suppressed: false,
  cvss_score: null,
  detected_at: '2026-01-15T12:00:00+00:00',
  uri: 'cloudg://findings/f-rdp-open',
};

const SSH_OPEN = {
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
};

const SG_ADMIN = {
  id: 'sg-admin',
  name: 'sg-admin',
  type: 'SECURITY_GROUP',
  provider: 'AWS',
  region: 'us-east-1',
  account_id: '111111111111',
  arn: 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0admin',
  internet_exposed: false,
  open_findings: 1,
  max_severity: 'CRITICAL',
  uri: 'cloudg://assets/sg-admin',
};

const OPEN_BREAKDOWN = { CRITICAL: 2, HIGH: 5, MEDIUM: 2, LOW: 1, INFO: 1 };

const ids = (result: Record<string, unknown>) => (result.items as { id: string }[]).map((i) => i.id);

describe('list_findings', () => {
  it('lists open findings highest risk first, with the breakdown of every match', async () => {
    const result = await call(layer, 'list_findings', { limit: 3 });
    expect(result).toMatchObject({
      dataset: 'sample',
      total: 11,
      offset: 0,
      returned: 3,
      truncated: true,
      severity_breakdown: OPEN_BREAKDOWN,
    });
    expect(Object.keys(result)).toEqual([
      'dataset',
      'total',
      'offset',
      'returned',
      'next_cursor',
      'truncated',
      'severity_breakdown',
      'items',
    ]);
    expect(result.next_cursor).toMatch(/^c3\.[0-9a-f]{12}$/);
    const items = result.items as Record<string, unknown>[];
    expect(items.slice(0, 2)).toEqual([RDP_OPEN, SSH_OPEN]);
    expect(items[2]).toMatchObject({ id: 'f-web-cve', risk_score: 7.8 });
  });

  it('filters by a framework substring and projects to fields, id first', async () => {
    expect(
      await call(layer, 'list_findings', { framework: 'pci', fields: ['title', 'severity', 'asset_name'] }),
    ).toEqual({
      dataset: 'sample',
      total: 3,
      offset: 0,
      returned: 3,
      next_cursor: null,
      truncated: false,
      severity_breakdown: { CRITICAL: 1, HIGH: 2 },
      items: [
        { id: 'f-ssh-open', title: SSH_OPEN.title, severity: 'CRITICAL', asset_name: 'sg-admin' },
        { id: 'f-web-cve', title: 'CVE-2024-1234 in openssl 3.0.1', severity: 'HIGH', asset_name: 'web-1' },
        {
          id: 'f-logs-public',
          title: 'S3 bucket allows public read',
          severity: 'HIGH',
          asset_name: 'prod-logs',
        },
      ],
    });
  });

  it('shows suppressed findings only with include_suppressed', async () => {
    const hidden = await call(layer, 'list_findings', { resource: 'data-bucket' });
    expect(hidden).toMatchObject({ total: 0, items: [], severity_breakdown: {} });
    expect(await call(layer, 'list_findings', { resource: 'data-bucket', include_suppressed: true })).toEqual(
      {
        dataset: 'sample',
        total: 1,
        offset: 0,
        returned: 1,
        next_cursor: null,
        truncated: false,
        severity_breakdown: { LOW: 1 },
        items: [
          {
            id: 'f-versioning',
            title: 'S3 versioning disabled',
            severity: 'LOW',
            risk_score: 2.5,
            source_tool: 'prowler',
            resource_id: 'data-bucket',
            resource_arn: null,
            asset_id: 'data-bucket',
            asset_name: 'prod-data',
            compliance_frameworks: ['CIS-AWS'],
            is_suppressed: true,
            cvss_score: null,
            detected_at: '2026-01-15T12:00:00+00:00',
            uri: 'cloudg://findings/f-versioning',
          },
        ],
      },
    );
  });

  it('combines severity sets, thresholds, tool and text filters', async () => {
    expect(ids(await call(layer, 'list_findings', { severities: ['critical', 'info'] }))).toEqual([
      'f-rdp-open',
      'f-ssh-open',
      'f-default-vpc',
    ]);
    expect(ids(await call(layer, 'list_findings', { min_severity: 'high', source_tool: 'SCOUT' }))).toEqual([
      'f-rdp-open',
      'f-logs-public',
    ]);
    expect(ids(await call(layer, 'list_findings', { query: 'BUCKET' }))).toEqual([
      'f-gcs-public',
      'f-logs-public',
      'f-ghost',
    ]);
    expect(ids(await call(layer, 'list_findings', { source_tool: 'cloudg-reachability' }))).toEqual([]);
  });

  it('sorts by severity, title, source tool and detection time', async () => {
    const bySeverity = ids(await call(layer, 'list_findings', { sort_by: 'severity', severities: ['HIGH'] }));
    expect(bySeverity[0]).toBe('f-web-cve'); // HIGH with the CVSS-raised risk 7.8 before the 7.5s
    const byTitle = ids(await call(layer, 'list_findings', { sort_by: 'title', limit: 2 }));
    expect(byTitle).toEqual(['f-gcs-public', 'f-ghost']); // case-insensitive: "Bucket is" < "Bucket without"
    const byTool = ids(await call(layer, 'list_findings', { sort_by: 'source_tool', limit: 2 }));
    expect(byTool).toEqual(['f-lambda-runtime', 'f-deploy-trust']);
    expect(await call(layer, 'list_findings', { sort_by: 'detected_at', limit: 1 })).toMatchObject({
      total: 11,
    });
  });

  it('pages with cursors, and a suppression makes the old cursor stale', async () => {
    const first = await call(layer, 'list_findings', { limit: 5 });
    const second = await call(layer, 'list_findings', { limit: 5, cursor: first.next_cursor });
    const third = await call(layer, 'list_findings', { limit: 5, cursor: second.next_cursor });
    expect(second).toMatchObject({ offset: 5, returned: 5, truncated: true });
    expect(third).toMatchObject({ offset: 10, returned: 1, next_cursor: null, truncated: false });
    expect(new Set([...ids(first), ...ids(second), ...ids(third)]).size).toBe(11);

    await call(layer, 'suppress_findings', { finding_ids: ['f-ghost'], reason: 'bucket is gone' });
    expect(await callError(layer, 'list_findings', { limit: 5, cursor: first.next_cursor })).toMatchObject({
      code: -32602,
      text: 'Stale cursor: the query arguments or the dataset changed since it was issued. Repeat the call without cursor to start again.',
    });
  });

  it('refuses an unknown severity with the valid list', async () => {
    expect(await callError(layer, 'list_findings', { min_severity: 'SEVERE' })).toEqual({
      text: 'Unknown severity. Valid values: CRITICAL, HIGH, MEDIUM, LOW, INFO',
      code: -32602,
      data: { value: 'SEVERE', valid: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'], close_matches: [] },
    });
    expect((await callError(layer, 'list_findings', { severities: ['HIGH', 'urgent'] })).data).toMatchObject({
      value: 'urgent',
    });
  });

  it('refuses unknown fields, sort orders and asset references', async () => {
    expect(await callError(layer, 'list_findings', { fields: ['owner'] })).toMatchObject({
      code: -32602,
      text: 'Unknown field(s). Valid fields: id, title, severity, risk_score, source_tool, resource_id, resource_arn, asset_id, asset_name, compliance_frameworks, is_suppressed, cvss_score, detected_at, uri',
    });
    expect((await callError(layer, 'list_findings', { sort_by: 'cvss' })).code).toBe(-32602);
    const miss = await callError(layer, 'list_findings', { resource: 'web-9' });
    expect(miss.code).toBe(-32602);
    expect(miss.text).toMatch(/^No asset matches the reference in this dataset\./);
  });

  it('fails on a dataset that is not loaded', async () => {
    expect(await callError(layer, 'list_findings', { dataset: 'prod' })).toMatchObject({
      code: -32602,
      data: { value: 'prod', datasets: [{ dataset: 'sample' }] },
    });
  });
});

describe('get_finding', () => {
  it('returns the finding with evidence, remediation, controls and asset, and links both', async () => {
    const result = await layer.callTool('get_finding', { finding_id: 'f-ssh-open' });
    expect(result.structured).toEqual({
      ...SSH_OPEN,
      description: 'Security group allows SSH (22) from 0.0.0.0/0.',
      evidence: 'IpPermissions 0.0.0.0/0 tcp 22',
      remediation: 'Restrict 22 to the VPN.',
      source_finding_id: 'prowler-aws-ec2_sg_open_22-1',
      controls: [
        {
          framework: 'CIS-AWS',
          control_id: '5.2',
          control_title: 'No SG allows 0.0.0.0/0 to admin ports',
          status: 'FAIL',
        },
        {
          framework: 'PCI-DSS',
          control_id: '1.3.1',
          control_title: 'Inbound traffic restricted',
          status: 'FAIL',
        },
      ],
      asset: SG_ADMIN,
    });
    expect(result.content.slice(1)).toEqual([
      {
        type: 'resource_link',
        uri: 'cloudg://assets/sg-admin',
        name: 'sg-admin',
        title: 'Affected asset',
        mimeType: 'application/json',
      },
      {
        type: 'resource_link',
        uri: 'cloudg://findings/f-ssh-open',
        name: 'Security group allows SSH (22) from 0.0.0.0/0',
        mimeType: 'application/json',
      },
    ]);
  });

  it("finds a finding by the scanner's id (f-web-cve scores 7.8: HIGH 7.5 and CVSS 8.1)", async () => {
    const result = await call(layer, 'get_finding', { finding_id: 'CVE-2024-1234' });
    expect(result).toMatchObject({
      id: 'f-web-cve',
      severity: 'HIGH',
      risk_score: 7.8,
      cvss_score: 8.1,
      evidence: null,
      remediation: null,
      source_finding_id: 'CVE-2024-1234',
      controls: [],
      asset: { id: 'web-1', type: 'EC2', open_findings: 1, max_severity: 'HIGH' },
    });
    expect(result).not.toHaveProperty('suppression_reason');
  });

  it('leaves asset out for a finding on no known resource', async () => {
    const result = await call(layer, 'get_finding', { finding_id: 'f-ghost' });
    expect(result).toMatchObject({ asset_id: null, asset_name: null });
    expect(result).not.toHaveProperty('asset');
  });

  it('suggests ids containing the text on a miss, without repeating it', async () => {
    expect(await callError(layer, 'get_finding', { finding_id: 'f-ssh' })).toEqual({
      text: 'No finding with that id in this dataset. 1 close match is listed with this error. Use list_findings to browse finding ids.',
      code: -32602,
      data: {
        value: 'f-ssh',
        dataset: 'sample',
        suggestions: [{ finding_id: 'f-ssh-open', dataset: 'sample' }],
      },
    });
    expect((await callError(layer, 'get_finding', { finding_id: '' })).text).toBe(
      'Invalid arguments: finding_id: String should have at least 1 character',
    );
  });
});

describe('findings_summary', () => {
  it('groups open findings by severity in severity order', async () => {
    expect(await call(layer, 'findings_summary')).toEqual({
      dataset: 'sample',
      group_by: 'severity',
      total: 11,
      suppressed: 1,
      groups: {
        CRITICAL: { total: 2, CRITICAL: 2 },
        HIGH: { total: 5, HIGH: 5 },
        MEDIUM: { total: 2, MEDIUM: 2 },
        LOW: { total: 1, LOW: 1 },
        INFO: { total: 1, INFO: 1 },
      },
      truncated: false,
    });
  });

  it('groups by account, largest first, unmatched findings under unmapped', async () => {
    const result = await call(layer, 'findings_summary', { group_by: 'account' });
    expect(result).toEqual({
      dataset: 'sample',
      group_by: 'account',
      total: 11,
      suppressed: 1,
      groups: {
        '111111111111': { total: 7, CRITICAL: 1, HIGH: 3, MEDIUM: 1, LOW: 1, INFO: 1 },
        '00000000-aaaa-bbbb-cccc-000000000001': { total: 1, CRITICAL: 1 },
        '222222222222': { total: 1, HIGH: 1 },
        'proj-analytics': { total: 1, HIGH: 1 },
        unmapped: { total: 1, MEDIUM: 1 },
      },
      truncated: false,
    });
    // Key order as printed (integer-like keys would otherwise be moved first by JSON objects).
    expect(Object.keys(result.groups as object)).toContain('unmapped');
  });

  it('counts a finding in each of its frameworks and those without one under (none)', async () => {
    expect(
      await call(layer, 'findings_summary', { group_by: 'framework', include_suppressed: true, top: 3 }),
    ).toEqual({
      dataset: 'sample',
      group_by: 'framework',
      total: 12,
      suppressed: 1,
      groups: {
        'CIS-AWS': { total: 7, CRITICAL: 1, HIGH: 3, MEDIUM: 2, LOW: 1 },
        'PCI-DSS': { total: 3, CRITICAL: 1, HIGH: 2 },
        '(none)': { total: 2, LOW: 1, INFO: 1 },
      },
      truncated: true,
    });
  });

  it('groups by source tool, asset type and asset', async () => {
    const tools = await call(layer, 'findings_summary', { group_by: 'source_tool' });
    expect(tools.groups).toEqual({
      prowler: { total: 5, CRITICAL: 1, HIGH: 2, MEDIUM: 1, INFO: 1 },
      scoutsuite: { total: 3, CRITICAL: 1, HIGH: 1, MEDIUM: 1 },
      checkov: { total: 1, LOW: 1 },
      iam: { total: 1, HIGH: 1 },
      trivy: { total: 1, HIGH: 1 },
    });
    const types = await call(layer, 'findings_summary', { group_by: 'asset_type', top: 2 });
    expect(types).toMatchObject({ total: 11, truncated: true });
    expect(Object.keys(types.groups as object)).toEqual(['EC2', 'GCS_BUCKET']);
    const assets = await call(layer, 'findings_summary', { group_by: 'asset', top: 200 });
    expect((assets.groups as Record<string, unknown>).unmapped).toEqual({ total: 1, MEDIUM: 1 });
    expect((assets.groups as Record<string, unknown>)['sg-admin']).toEqual({ total: 1, CRITICAL: 1 });
  });

  it('refuses an unknown grouping and a top out of range', async () => {
    expect((await callError(layer, 'findings_summary', { group_by: 'region' })).code).toBe(-32602);
    expect((await callError(layer, 'findings_summary', { top: 201 })).code).toBe(-32602);
  });
});

describe('findings_for_asset', () => {
  it('returns the asset brief and its findings, highest risk first', async () => {
    expect(await call(layer, 'findings_for_asset', { ref: 'sg-admin' })).toEqual({
      dataset: 'sample',
      asset: SG_ADMIN,
      total: 1,
      returned: 1,
      truncated: false,
      items: [SSH_OPEN],
    });
  });

  it('adds suppressed findings on request and caps the list at limit', async () => {
    expect(await call(layer, 'findings_for_asset', { ref: 'prod-data' })).toMatchObject({
      total: 0,
      items: [],
    });
    expect(
      await call(layer, 'findings_for_asset', { ref: 'prod-data', include_suppressed: true }),
    ).toMatchObject({
      total: 1,
      items: [{ id: 'f-versioning', is_suppressed: true }],
    });
    await call(layer, 'load_dataset', { path: 'report/findings.json', name: 'report' });
    expect(
      await call(layer, 'findings_for_asset', { ref: 'sg-admin', limit: 1, dataset: 'sample' }),
    ).toMatchObject({ total: 1, returned: 1, truncated: false });
  });

  it('fails like an asset reference on a miss', async () => {
    expect((await callError(layer, 'findings_for_asset', { ref: 'web-9' })).text).toMatch(
      /^No asset matches the reference in this dataset\. \d close match/,
    );
  });
});

describe('top_risks', () => {
  const components = {
    max_finding_risk: 9.5,
    exposure_factor: 1.5,
    internet_reachable: true,
    transitive_dependents: 1,
    blast_factor: 1.151,
    open_findings: 1,
    volume_factor: 1.0,
  };

  it('ranks jump-nsg and sg-admin first at 16.39, with the score components', async () => {
    const result = await call(layer, 'top_risks', { top: 3 });
    expect(result).toMatchObject({
      dataset: 'sample',
      total_candidates: 10,
      formula: 'max_risk * exposure * blast * volume',
    });
    const items = result.items as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    expect(items[0]).toEqual({
      asset: {
        id: 'az-nsg',
        name: 'jump-nsg',
        type: 'NSG',
        provider: 'AZURE',
        region: 'westeurope',
        account_id: '00000000-aaaa-bbbb-cccc-000000000001',
        arn: '/subscriptions/00000000-aaaa-bbbb-cccc-000000000001/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/jump-nsg',
        internet_exposed: false,
        open_findings: 1,
        max_severity: 'CRITICAL',
        uri: 'cloudg://assets/az-nsg',
      },
      score: 16.39,
      components,
      top_findings: [RDP_OPEN],
    });
    expect(items[1]).toEqual({ asset: SG_ADMIN, score: 16.39, components, top_findings: [SSH_OPEN] });
  });

  it('scores exposure, blast and volume as documented', async () => {
    const items = (await call(layer, 'top_risks', { top: 100 })).items as {
      asset: { id: string };
      score: number;
      components: Record<string, unknown>;
    }[];
    const byId = new Map(items.map((i) => [i.asset.id, i]));
    // f-web-cve: 7.8 x 1.5 (behind the public load balancer) x (1 + log10(3) / 2).
    expect(byId.get('web-1')).toMatchObject({
      score: 14.49,
      components: {
        max_finding_risk: 7.8,
        internet_reachable: true,
        transitive_dependents: 2,
        blast_factor: 1.239,
      },
    });
    // Not reachable: a role trusted across accounts, many dependents.
    expect(byId.get('deploy-role')?.components).toMatchObject({
      exposure_factor: 1,
      internet_reachable: false,
    });
    // Scores never increase down the list; ties are by asset name.
    const scores = items.map((i) => i.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('counts only open findings at or above min_severity, and leaves suppressed ones out', async () => {
    expect(await call(layer, 'top_risks', { min_severity: 'critical' })).toMatchObject({
      total_candidates: 2,
    });
    await call(layer, 'suppress_findings', { finding_ids: ['f-rdp-open'], reason: 'jump host retired' });
    const after = await call(layer, 'top_risks', { min_severity: 'CRITICAL' });
    expect(after.total_candidates).toBe(1);
    expect((after.items as { asset: { id: string } }[])[0]?.asset.id).toBe('sg-admin');
  });

  it('refuses an unknown severity and a top out of range', async () => {
    expect((await callError(layer, 'top_risks', { min_severity: 'SEVERE' })).text).toBe(
      'Unknown severity. Valid values: CRITICAL, HIGH, MEDIUM, LOW, INFO',
    );
    expect((await callError(layer, 'top_risks', { top: 101 })).code).toBe(-32602);
  });
});

describe('suppress_findings and unsuppress_findings', () => {
  it('reports what changed, what already was and what does not exist', async () => {
    expect(
      await call(layer, 'suppress_findings', {
        finding_ids: ['f-default-vpc', 'f-versioning', 'f-nope'],
        reason: 'Accepted risk: sandbox VPC, tracked in RISK-42',
      }),
    ).toEqual({
      dataset: 'sample',
      suppressed: ['f-default-vpc'],
      already_suppressed: ['f-versioning'],
      not_found: ['f-nope'],
    });
    const finding = await call(layer, 'get_finding', { finding_id: 'f-default-vpc' });
    expect(finding).toMatchObject({
      is_suppressed: true,
      suppression_reason: 'Accepted risk: sandbox VPC, tracked in RISK-42',
      suppressed_by: 'local',
    });
    expect(finding.suppressed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    // Suppressing again replaces the reason.
    await call(layer, 'suppress_findings', { finding_ids: ['f-default-vpc'], reason: 'false positive' });
    expect(await call(layer, 'get_finding', { finding_id: 'f-default-vpc' })).toMatchObject({
      suppression_reason: 'false positive',
    });

    expect(await call(layer, 'unsuppress_findings', { finding_ids: ['f-default-vpc', 'f-web-cve'] })).toEqual(
      {
        dataset: 'sample',
        unsuppressed: ['f-default-vpc'],
        not_suppressed: ['f-web-cve'],
        not_found: [],
      },
    );
    const restored = await call(layer, 'get_finding', { finding_id: 'f-default-vpc' });
    expect(restored.is_suppressed).toBe(false);
    expect(restored).not.toHaveProperty('suppression_reason');
  });

  it('takes suppressed findings out of every open count', async () => {
    await call(layer, 'suppress_findings', { finding_ids: ['f-ssh-open'], reason: 'behind the VPN' });
    expect(await call(layer, 'findings_summary')).toMatchObject({ total: 10, suppressed: 2 });
    expect(await call(layer, 'list_findings', { limit: 1 })).toMatchObject({
      total: 10,
      severity_breakdown: { CRITICAL: 1, HIGH: 5, MEDIUM: 2, LOW: 1, INFO: 1 },
    });
    expect(await call(layer, 'dataset_summary')).toMatchObject({ open_findings: 10, suppressed_findings: 2 });
    expect(await call(layer, 'findings_for_asset', { ref: 'sg-admin' })).toMatchObject({
      asset: { open_findings: 0, max_severity: null },
      total: 0,
    });
    expect(await call(layer, 'find_assets', { has_findings: true, query: 'sg-admin' })).toMatchObject({
      total: 0,
    });
  });

  it('keeps graphs and sort orders across a suppression, and counts again', async () => {
    await call(layer, 'top_risks');
    await call(layer, 'list_findings');
    const dataset = ws.get('sample');
    await call(layer, 'suppress_findings', { finding_ids: ['f-web-cve'], reason: 'patched in AMI v42' });
    // What top_risks and list_findings read: the dependents' rows, the traffic graph and the
    // internet walk over it, the findings columns and a sort order.
    for (const key of [
      'findings:dependent-rows',
      'graph.compact.traffic',
      'graph.internet_reach',
      'findings:facts',
      'findings:columns:risk',
    ])
      expect(dataset.isCached(key), key).toBe(true);
    expect(dataset.isCached('summary')).toBe(false);
    expect(await call(layer, 'get_asset', { ref: 'web-1', include_findings: false })).toMatchObject({
      open_findings: 0,
      max_severity: null,
    });
    const risks = (await call(layer, 'top_risks', { top: 100 })).items as { asset: { id: string } }[];
    expect(risks.map((i) => i.asset.id)).not.toContain('web-1');
  });

  it('counts right through a run of suppressions and restores', async () => {
    const total = async (args: Record<string, unknown> = {}) =>
      (await call(layer, 'list_findings', { limit: 1, ...args })).total;
    expect(await total()).toBe(11);
    await call(layer, 'suppress_findings', { finding_ids: ['f-ssh-open', 'f-rdp-open'], reason: 'VPN only' });
    expect(await total()).toBe(9);
    expect(await total({ severities: ['CRITICAL'] })).toBe(0);
    await call(layer, 'unsuppress_findings', { finding_ids: ['f-ssh-open', 'f-versioning'] });
    expect(await total()).toBe(11);
    expect(await total({ include_suppressed: true })).toBe(12);
    expect(ids(await call(layer, 'list_findings', { severities: ['CRITICAL'] }))).toEqual(['f-ssh-open']);
    const frameworks = await call(layer, 'findings_summary', { group_by: 'framework', top: 200 });
    expect(frameworks).toMatchObject({ total: 11, suppressed: 1 });
    // f-rdp-open, the only CIS-Azure finding, is still suppressed.
    expect(frameworks.groups).not.toHaveProperty('CIS-Azure');
    expect(frameworks.groups).toHaveProperty('CIS-AWS', {
      total: 7,
      CRITICAL: 1,
      HIGH: 3,
      MEDIUM: 2,
      LOW: 1,
    });
  });

  it('tells subscribers of the findings resources what changed', async () => {
    const updated: (string | undefined)[] = [];
    ws.onChange((kind, uri) => {
      if (kind === 'resource') updated.push(uri);
    });
    await call(layer, 'suppress_findings', { finding_ids: ['f-ghost', 'f-nope'], reason: 'bucket deleted' });
    expect(updated).toEqual(
      expect.arrayContaining(['cloudg://findings/summary', 'cloudg://findings/f-ghost']),
    );
    expect(updated).not.toContain('cloudg://findings/f-nope');
  });

  it('changes the dataset version only when a finding changed', async () => {
    const version = () => ws.get('sample').version;
    const before = version();
    await call(layer, 'suppress_findings', { finding_ids: ['f-nope'], reason: 'nothing here' });
    await call(layer, 'unsuppress_findings', { finding_ids: ['f-web-cve'] });
    expect(version()).toBe(before);
    await call(layer, 'suppress_findings', { finding_ids: ['f-web-cve'], reason: 'patched' });
    expect(version()).toBe(before + 1);
  });

  it('refuses a reason under 3 characters and more than 500 ids', async () => {
    expect(
      await callError(layer, 'suppress_findings', { finding_ids: ['f-default-vpc'], reason: 'ok' }),
    ).toEqual({
      text: 'Invalid arguments: reason: String should have at least 3 characters',
      code: -32602,
      data: [{ loc: 'reason', msg: 'String should have at least 3 characters', type: 'string_too_short' }],
    });
    const many = Array.from({ length: 501 }, (_, i) => `f-${i}`);
    expect((await callError(layer, 'unsuppress_findings', { finding_ids: many })).code).toBe(-32602);
    expect((await callError(layer, 'unsuppress_findings', { finding_ids: [] })).code).toBe(-32602);
  });
});

describe('reachability_findings', () => {
  const UUID5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('previews the nine findings of the sample estate without adding them', async () => {
    const result = await call(layer, 'reachability_findings', { limit: 3 });
    expect(result).toMatchObject({
      dataset: 'sample',
      generated: 9,
      new: 9,
      added: 0,
      total: 9,
      returned: 3,
      truncated: true,
    });
    const items = result.items as Record<string, unknown>[];
    expect(items[0]).toEqual({
      id: uuid5(
        'internet-exposed-unexpected-asset\narn:aws:apigateway:us-east-1::/restapis/a1b2c3',
        REACHABILITY_NAMESPACE,
      ),
      title: 'Unexpected internet-exposed resource: public-api',
      severity: 'HIGH',
      risk_score: 7.5,
      source_tool: 'cloudg-reachability',
      resource_id: 'api-gw',
      resource_arn: 'arn:aws:apigateway:us-east-1::/restapis/a1b2c3',
      asset_id: 'api-gw',
      asset_name: 'public-api',
      compliance_frameworks: [],
      is_suppressed: false,
      cvss_score: null,
      detected_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      uri: expect.stringMatching(/^cloudg:\/\/findings\//),
    });
    expect(items[0]?.id).toMatch(UUID5);
    expect(items[1]).toMatchObject({
      title: 'Unexpected internet-exposed resource: jump-vm',
      asset_id: 'az-vm',
    });
    expect((await call(layer, 'findings_summary')).total).toBe(11);
  });

  it('follows traffic only: IAM grants and invocations do not expose, hops and load balancers get no exposure finding', async () => {
    const items = (await call(layer, 'reachability_findings', { limit: 500 })).items as {
      resource_id: string;
      title: string;
      severity: string;
      compliance_frameworks: string[];
    }[];
    const exposed = items.filter((i) => i.title.startsWith('Unexpected')).map((i) => i.resource_id);
    expect(exposed).toEqual(['api-gw', 'az-vm', 'bastion', 'gcp-gcs', 'logs-bucket', 'web-1', 'web-2']);
    expect(items.filter((i) => i.severity === 'CRITICAL')).toEqual([
      expect.objectContaining({
        title: 'Security group allows RDP (port 3389) from 0.0.0.0/0',
        resource_id: 'az-nsg',
        compliance_frameworks: ['CIS', 'NIST-800-53', 'PCI-DSS'],
      }),
      expect.objectContaining({
        title: 'Security group allows SSH (port 22) from 0.0.0.0/0',
        resource_id: 'sg-admin',
      }),
    ]);
  });

  it('keeps its ids from run to run, adds only new findings, and the added ones are ordinary findings', async () => {
    const preview = await call(layer, 'reachability_findings', { limit: 500 });
    const added = await call(layer, 'reachability_findings', { add_to_dataset: true, limit: 500 });
    expect(added).toMatchObject({ generated: 9, new: 9, added: 9 });
    expect(ids(added)).toEqual(ids(preview));
    expect(await call(layer, 'reachability_findings', { add_to_dataset: true })).toMatchObject({
      generated: 9,
      new: 0,
      added: 0,
      total: 0,
      items: [],
    });
    expect(await call(layer, 'list_findings', { source_tool: 'reachability', limit: 1 })).toMatchObject({
      total: 9,
    });
    const [first] = ids(preview);
    expect(await call(layer, 'get_finding', { finding_id: first })).toMatchObject({
      asset: { id: 'api-gw' },
      evidence: 'Network path: internet -> public-api',
      source_finding_id: 'internet-exposed-unexpected-asset',
    });
  });
});
