import type { Layer } from '@cloudg/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { CollectionCoverageSchema, type Workspace } from '../../src/index.js';
import { readSampleEstateFacts } from '../../src/sample-estate/generate.js';
import { sampleEstateFactsPath } from '../../src/sample-estate/paths.js';
import { call, callError, sampleLayer } from './support.js';

let layer: Layer<Workspace>;
let ws: Workspace;
beforeEach(async () => {
  ({ layer, ws } = await sampleLayer({ report: true }));
});

const BASTION = {
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
};

const FIRST_PAGE = { dataset: 'sample', offset: 0, next_cursor: null, truncated: false };

describe('find_assets', () => {
  it('combines type, exposure and severity filters', async () => {
    expect(
      await call(layer, 'find_assets', {
        asset_types: ['EC2'],
        internet_exposed: true,
        min_severity: 'HIGH',
      }),
    ).toEqual({ ...FIRST_PAGE, total: 1, returned: 1, items: [BASTION] });
  });

  it('projects to name and tags for a tag filter, id first', async () => {
    const tags = { env: 'prod', owner: 'web-team' };
    expect(await call(layer, 'find_assets', { tag: 'owner=web-team', fields: ['name', 'tags'] })).toEqual({
      ...FIRST_PAGE,
      total: 3,
      returned: 3,
      items: [
        { id: 'web-1', name: 'web-1', tags },
        { id: 'web-2', name: 'web-2', tags },
        { id: 'alb-web', name: 'web-alb', tags },
      ],
    });
  });

  it('adds a hint when nothing matches', async () => {
    expect(await call(layer, 'find_assets', { query: 'kubernetes' })).toEqual({
      ...FIRST_PAGE,
      total: 0,
      returned: 0,
      items: [],
      hint: 'No assets matched. Loosen the filters, or use list_asset_types / list_accounts / list_regions to see valid values.',
    });
  });

  it('pages a risk-sorted search with cursors', async () => {
    const args = { sort_by: 'risk', limit: 3, fields: ['name', 'type', 'max_severity', 'open_findings'] };
    const first = await call(layer, 'find_assets', args);
    expect(first).toMatchObject({ total: 44, offset: 0, returned: 3, truncated: true });
    expect(first.next_cursor).toMatch(/^c3\.[0-9a-f]{12}$/);
    expect(first.items).toEqual([
      {
        id: 'sg-admin',
        name: 'sg-admin',
        type: 'SECURITY_GROUP',
        max_severity: 'CRITICAL',
        open_findings: 1,
      },
      { id: 'bastion', name: 'bastion', type: 'EC2', max_severity: 'HIGH', open_findings: 1 },
      { id: 'logs-bucket', name: 'prod-logs', type: 'S3_BUCKET', max_severity: 'HIGH', open_findings: 1 },
    ]);
    const second = await call(layer, 'find_assets', { ...args, cursor: first.next_cursor });
    expect(second).toMatchObject({ total: 44, offset: 3, returned: 3, truncated: true });
    expect(second.next_cursor).toBe(`c6.${String(first.next_cursor).split('.')[1]}`);
    expect((second.items as { id: string }[]).map((i) => i.id)).toEqual(['az-nsg', 'gcp-gcs', 'web-1']);

    expect(
      await callError(layer, 'find_assets', { sort_by: 'name', limit: 3, cursor: first.next_cursor }),
    ).toEqual({
      text: 'Stale cursor: the query arguments or the dataset changed since it was issued. Repeat the call without cursor to start again.',
      code: -32602,
      data: undefined,
    });
  });

  it('refuses a cursor after the dataset changed', async () => {
    const first = await call(layer, 'find_assets', { limit: 2 });
    ws.mutated(ws.get('sample'));
    const error = await callError(layer, 'find_assets', { limit: 2, cursor: first.next_cursor });
    expect(error.text).toMatch(/^Stale cursor/);
  });

  it('refuses anything that is not a cursor', async () => {
    expect(await callError(layer, 'find_assets', { cursor: 'eyJvZmZzZXQiOjN9' })).toEqual({
      text: 'Invalid cursor. Pass the next_cursor value from the previous result unchanged, or omit cursor to start from the first page.',
      code: -32602,
      data: undefined,
    });
  });

  it('refuses unknown fields with the valid list', async () => {
    const error = await callError(layer, 'find_assets', { fields: ['owner'] });
    expect(error).toMatchObject({
      code: -32602,
      text: 'Unknown field(s). Valid fields: id, name, type, provider, region, account_id, arn, internet_exposed, open_findings, max_severity, tags, uri',
      data: { value: ['owner'] },
    });
  });

  it('refuses an unknown asset type, naming close and valid values without echoing the value', async () => {
    const error = await callError(layer, 'find_assets', { asset_types: ['LAMBDA'] });
    expect(error.code).toBe(-32602);
    expect(error.text).toMatch(
      /^Unknown asset type\. Did you mean LAMBDA_FUNCTION, ALARM\? Valid values: EC2, VIRTUAL_MACHINE, GCE_INSTANCE, LAMBDA_FUNCTION, CLOUD_FUNCTION, /,
    );
    expect(error.data).toMatchObject({ value: 'LAMBDA', close_matches: ['LAMBDA_FUNCTION', 'ALARM'] });
    expect((error.data as { valid: string[] }).valid.slice(0, 3)).toEqual([
      'EC2',
      'VIRTUAL_MACHINE',
      'GCE_INSTANCE',
    ]);
  });

  it('accepts a known type absent from the dataset, matching nothing', async () => {
    expect(await call(layer, 'find_assets', { asset_types: ['eks-cluster'] })).toMatchObject({ total: 0 });
  });

  it('refuses an unknown severity with the valid list', async () => {
    expect(await callError(layer, 'find_assets', { min_severity: 'SEVERE' })).toEqual({
      text: 'Unknown severity. Valid values: CRITICAL, HIGH, MEDIUM, LOW, INFO',
      code: -32602,
      data: { value: 'SEVERE', valid: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'], close_matches: [] },
    });
  });

  it('validates limit and unknown arguments before running', async () => {
    expect(await callError(layer, 'find_assets', { limit: 1000 })).toEqual({
      text: 'Invalid arguments: limit: Input should be less than or equal to 500',
      code: -32602,
      data: [{ loc: 'limit', msg: 'Input should be less than or equal to 500', type: 'less_than_equal' }],
    });
    expect(await callError(layer, 'find_assets', { name: 'web-1' })).toEqual({
      text: `Invalid arguments: name: Extra inputs are not permitted. Valid arguments: ${Object.keys(
        layer.getTool('find_assets').inputSchema.properties as object,
      ).join(', ')}`,
      code: -32602,
      data: [{ loc: 'name', msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }],
    });
  });

  it('matches region case-insensitively, account exactly, and the query against tag values', async () => {
    const byRegion = await call(layer, 'find_assets', { region: 'US-EAST-1', limit: 500 });
    expect(byRegion.total).toBe(24);
    const byAccount = await call(layer, 'find_assets', { account_id: '222222222222' });
    expect(byAccount.total).toBe(4);
    const pii = await call(layer, 'find_assets', { query: 'PII', fields: ['name'] });
    expect(pii.total).toBe(2);
    const unexposedWithFindings = await call(layer, 'find_assets', {
      has_findings: true,
      internet_exposed: false,
    });
    expect(unexposedWithFindings.total).toBe(7);
    const azure = await call(layer, 'find_assets', { provider: 'Azure', sort_by: 'type', descending: true });
    expect((azure.items as { type: string }[]).map((i) => i.type)).toEqual([
      'VNET',
      'VIRTUAL_MACHINE',
      'NSG',
      'KEY_VAULT',
      'BLOB_STORAGE',
    ]);
  });

  it('searches another dataset by name', async () => {
    const report = await call(layer, 'find_assets', { dataset: 'report', asset_types: ['ec2'] });
    expect(report).toMatchObject({ dataset: 'report', total: 3 });
  });
});

describe('get_asset', () => {
  it('resolves an ARN tail and describes the asset', async () => {
    const result = await layer.callTool('get_asset', { ref: 'i-0web1', max_relations: 3 });
    expect(result.structured).toEqual({
      id: 'web-1',
      name: 'web-1',
      type: 'EC2',
      provider: 'AWS',
      region: 'us-east-1',
      account_id: '111111111111',
      arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web1',
      internet_exposed: false,
      open_findings: 1,
      max_severity: 'HIGH',
      uri: 'cloudg://assets/web-1',
      tags: { env: 'prod', owner: 'web-team' },
      dataset: 'sample',
      service: 'ec2',
      relations: {
        outgoing: { ATTACHED_TO: 1, ASSUMES_ROLE: 1 },
        incoming: { CONTAINS: 1, LOAD_BALANCER_TARGET: 1, MONITORS: 1 },
        sample: [
          {
            id: 'e-web1-sg',
            source: 'web-1',
            source_name: 'web-1',
            target: 'sg-app',
            target_name: 'sg-app',
            edge_type: 'ATTACHED_TO',
            relationship: null,
          },
          {
            id: 'e-web1-role',
            source: 'web-1',
            source_name: 'web-1',
            target: 'app-role',
            target_name: 'app-role',
            edge_type: 'ASSUMES_ROLE',
            relationship: null,
          },
          {
            id: 'e-priv-web1',
            source: 'subnet-private',
            source_name: 'prod-private-a',
            target: 'web-1',
            target_name: 'web-1',
            edge_type: 'CONTAINS',
            relationship: null,
          },
        ],
        total: 5,
        truncated: true,
      },
      dependencies: { direct_depends_on: 4, direct_dependents: 1 },
      degree: { in: 3, out: 2 },
      findings: [
        {
          id: 'f-web-cve',
          title: 'CVE-2024-1234 in openssl 3.0.1',
          severity: 'HIGH',
          risk_score: 7.8,
          source_tool: 'trivy',
          resource_id: 'web-1',
          resource_arn: null,
          asset_id: 'web-1',
          asset_name: 'web-1',
          compliance_frameworks: ['PCI-DSS'],
          is_suppressed: false,
          cvss_score: 8.1,
          detected_at: '2026-01-15T12:00:00+00:00',
          uri: 'cloudg://findings/f-web-cve',
        },
      ],
      metadata_keys: ['imds_v2', 'instance_type', 'user_data'],
      collected_at: '2026-01-15T12:00:00+00:00',
    });
    expect(result.content.slice(1)).toEqual([
      {
        type: 'resource_link',
        uri: 'cloudg://assets/web-1',
        name: 'web-1',
        title: 'EC2 web-1',
        mimeType: 'application/json',
      },
      {
        type: 'resource_link',
        uri: 'cloudg://assets/web-1/neighbors',
        name: 'web-1 neighbors',
        mimeType: 'application/json',
      },
    ]);
  });

  it('resolves the resource part of a Lambda ARN and leaves findings out on request', async () => {
    const asset = await call(layer, 'get_asset', {
      ref: 'function:api-handler',
      include_findings: false,
      max_relations: 1,
    });
    expect(asset).toMatchObject({
      id: 'api-handler',
      type: 'LAMBDA_FUNCTION',
      open_findings: 1,
      max_severity: 'LOW',
      tags: { owner: 'api-team' },
      service: 'lambda',
      relations: {
        outgoing: { ASSUMES_ROLE: 1, LOGS_TO: 1, REFERENCES: 1, USES_IMAGE: 1 },
        incoming: { INVOKES: 2 },
        sample: [expect.objectContaining({ id: 'e-lambda-role', target_name: 'api-lambda-role' })],
        total: 6,
        truncated: true,
      },
      dependencies: { direct_depends_on: 6, direct_dependents: 0 },
      degree: { in: 2, out: 4 },
      metadata_keys: ['runtime'],
    });
    expect(asset).not.toHaveProperty('findings');
  });

  it('suggests close assets for a reference that matches nothing, without echoing it', async () => {
    const error = await callError(layer, 'get_asset', { ref: 'web-3' });
    expect(error.text).toBe(
      'No asset matches the reference in this dataset. 5 close matches are listed with this error. Use find_assets(query=...) to search by name, ARN or tag.',
    );
    expect(error.code).toBe(-32602);
    const data = error.data as { value: string; dataset: string; suggestions: Record<string, unknown>[] };
    expect(data.value).toBe('web-3');
    expect(data.dataset).toBe('sample');
    expect(data.suggestions).toHaveLength(5);
    expect(data.suggestions.slice(0, 2)).toEqual([
      {
        id: 'web-2',
        name: 'web-2',
        arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web2',
        type: 'EC2',
        account_id: '111111111111',
        dataset: 'sample',
      },
      {
        id: 'web-1',
        name: 'web-1',
        arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web1',
        type: 'EC2',
        account_id: '111111111111',
        dataset: 'sample',
      },
    ]);
  });
});

describe('get_asset_metadata', () => {
  it('returns the requested keys and names the missing ones', async () => {
    expect(
      await call(layer, 'get_asset_metadata', { ref: 'web-1', keys: ['instance_type', 'imds_v2', 'ami'] }),
    ).toEqual({
      id: 'web-1',
      name: 'web-1',
      type: 'EC2',
      truncated: false,
      metadata: { instance_type: 't3.large', imds_v2: false },
      missing_keys: ['ami'],
    });
  });

  it('returns every key under the open policy, secrets included', async () => {
    const all = await call(layer, 'get_asset_metadata', { ref: 'web-1' });
    expect(all.metadata).toEqual({
      instance_type: 't3.large',
      imds_v2: false,
      user_data: 'export DB_PASSWORD=hunter2',
    });
  });

  it('leaves out keys that would cross the budget and lists key sizes', async () => {
    const big = ws.get('sample').indexes.assetById('web-1');
    if (!big) throw new Error('web-1 missing');
    big.metadata = { small: 'x', huge: 'y'.repeat(5000), tail: 1 };
    const result = await call(layer, 'get_asset_metadata', { ref: 'web-1', max_chars: 1000 });
    expect(result).toMatchObject({ truncated: true, metadata: { small: 'x', tail: 1 } });
    expect(Object.keys(result.key_sizes as object)[0]).toBe('huge');
    expect(result.hint).toMatch(/keys/);
  });
});

describe('count_assets', () => {
  it('groups by provider', async () => {
    expect(await call(layer, 'count_assets', { group_by: 'provider' })).toEqual({
      dataset: 'sample',
      group_by: 'provider',
      total: 44,
      group_count: 3,
      groups: { AWS: 36, AZURE: 5, GCP: 3 },
      truncated: false,
    });
  });

  it('groups by worst open severity, NONE for assets without findings, ties by key', async () => {
    const counts = await call(layer, 'count_assets', { group_by: 'severity' });
    expect(counts).toMatchObject({ total: 44, group_count: 6, truncated: false });
    expect(Object.entries(counts.groups as object)).toEqual([
      ['NONE', 34],
      ['HIGH', 5],
      ['CRITICAL', 2],
      ['INFO', 1],
      ['LOW', 1],
      ['MEDIUM', 1],
    ]);
  });

  it('groups AWS assets by service, cut to the top five', async () => {
    const counts = await call(layer, 'count_assets', { group_by: 'service', provider: 'aws', top: 5 });
    expect(counts).toMatchObject({ total: 36, group_count: 16, truncated: true });
    expect(Object.entries(counts.groups as object)).toEqual([
      ['ec2', 10],
      ['iam', 7],
      ['organizations', 3],
      ['s3', 3],
      ['elasticloadbalancing', 2],
    ]);
  });

  it('groups by exposure', async () => {
    const counts = await call(layer, 'count_assets', { group_by: 'exposure' });
    expect(counts.groups).toEqual({ internal: 38, internet_exposed: 6 });
  });
});

describe('listings', () => {
  it('list_asset_types: types present, most common first', async () => {
    const types = await call(layer, 'list_asset_types');
    expect(types).toMatchObject({ dataset: 'sample', total_types: 31 });
    expect((types.items as unknown[]).slice(0, 3)).toEqual([
      { type: 'SECURITY_GROUP', count: 4, internet_exposed: 0, open_findings: 1 },
      { type: 'IAM_ROLE', count: 4, internet_exposed: 0, open_findings: 1 },
      { type: 'CLOUD_ACCOUNT', count: 3, internet_exposed: 0, open_findings: 0 },
    ]);
  });

  it('list_accounts: accounts with counts, names from account assets', async () => {
    const accounts = await call(layer, 'list_accounts');
    expect(accounts).toMatchObject({ ...FIRST_PAGE, total: 5, returned: 5 });
    const items = accounts.items as Record<string, unknown>[];
    expect(items.slice(0, 2)).toEqual([
      {
        account_id: '111111111111',
        provider: 'AWS',
        assets: 31,
        regions: ['global', 'us-east-1'],
        internet_exposed: 4,
        open_findings: 7,
        name: 'prod',
        external: false,
      },
      {
        account_id: '00000000-aaaa-bbbb-cccc-000000000001',
        provider: 'AZURE',
        assets: 5,
        regions: ['westeurope'],
        internet_exposed: 1,
        open_findings: 1,
        name: null,
        external: false,
      },
    ]);
    expect(items.at(-1)).toMatchObject({ account_id: '999999999999', name: 'vendor-co', external: true });
    const page = await call(layer, 'list_accounts', { limit: 2 });
    const next = await call(layer, 'list_accounts', { limit: 2, cursor: page.next_cursor });
    expect((next.items as { account_id: string }[]).map((a) => a.account_id)).toEqual([
      '222222222222',
      'proj-analytics',
    ]);
  });

  it('list_regions: regions with providers and counts, plus the scanned regions', async () => {
    const regions = await call(layer, 'list_regions');
    expect(regions).toMatchObject({ dataset: 'sample', total: 5 });
    expect((regions.items as unknown[]).slice(0, 2)).toEqual([
      { region: 'us-east-1', providers: ['AWS'], assets: 24, accounts: 1 },
      { region: 'global', providers: ['AWS'], assets: 10, accounts: 3 },
    ]);
    expect(regions.scanned_regions).toEqual({
      aws: ['us-east-1', 'eu-west-1'],
      azure: ['westeurope'],
      gcp: ['europe-west1'],
    });
  });

  it('list_tags: keys with their most common values', async () => {
    const owner = {
      key: 'owner',
      assets: 7,
      distinct_values: 4,
      top_values: { 'web-team': 3, platform: 2, 'api-team': 1, 'it-ops': 1 },
    };
    expect(await call(layer, 'list_tags')).toEqual({
      dataset: 'sample',
      total: 3,
      returned: 3,
      truncated: false,
      items: [
        { key: 'env', assets: 8, distinct_values: 1, top_values: { prod: 8 } },
        owner,
        { key: 'data', assets: 2, distinct_values: 1, top_values: { pii: 2 } },
      ],
    });
    expect(await call(layer, 'list_tags', { key: 'owner' })).toEqual({
      dataset: 'sample',
      total: 1,
      returned: 1,
      truncated: false,
      items: [owner],
    });
    expect(await call(layer, 'list_tags', { key: 'owner', top: 2 })).toMatchObject({
      items: [{ top_values: { 'web-team': 3, platform: 2 } }],
    });
  });
});

describe('coverage_report', () => {
  it('says a loaded map has no coverage records', async () => {
    expect(await call(layer, 'coverage_report')).toEqual({
      dataset: 'sample',
      records: [],
      note: 'This dataset has no coverage records (they exist only for live collections via map_inventory / collect_assets).',
    });
  });

  it('summarises the records of a live collection with totals', async () => {
    const facts = await readSampleEstateFacts(sampleEstateFactsPath());
    ws.addInventory(
      { assets: [], coverage: facts.coverage.map((c) => CollectionCoverageSchema.parse(c)) },
      'live-aws',
    );
    expect(await call(layer, 'coverage_report', { dataset: 'live-aws' })).toEqual({
      dataset: 'live-aws',
      records: [
        {
          provider: 'aws',
          region: 'us-east-1',
          account_id: '111111111111',
          total_services: 3,
          successful: 2,
          failed: 1,
          coverage_pct: 66.7,
          failures: [{ service: 'rds', error: 'AccessDenied: rds:DescribeDBInstances' }],
        },
      ],
      total_services: 3,
      successful: 2,
      failed: 1,
      coverage_pct: 66.7,
    });
  });
});

describe('unresolved_references', () => {
  it('passes the linker misses through as stored', async () => {
    expect(await call(layer, 'unresolved_references')).toEqual({
      ...FIRST_PAGE,
      total: 1,
      returned: 1,
      items: [
        {
          source: 'web-1',
          source_type: 'EC2',
          target: 'arn:aws:iam::111111111111:role/missing-role',
          edge: 'ASSUMES_ROLE',
        },
      ],
    });
  });
});

describe('organization_topology', () => {
  it('reads organization discovery data with policies', async () => {
    const workloads = ['Root', 'Workloads'];
    expect(await call(layer, 'organization_topology', { include_policies: true })).toEqual({
      dataset: 'sample',
      source: 'organization_discovery',
      organization_id: 'o-sample',
      management_account_id: '111111111111',
      feature_set: 'ALL',
      control_tower_enabled: true,
      governed_regions: ['us-east-1', 'eu-west-1'],
      shared_accounts: {},
      ous: [{ id: 'ou-work', name: 'Workloads', path: workloads, parent_id: 'r-root' }],
      accounts: [
        { id: '111111111111', name: 'prod', status: 'ACTIVE', ou_path: workloads, parent_id: 'ou-work' },
        {
          id: '222222222222',
          name: 'shared-services',
          status: 'ACTIVE',
          ou_path: workloads,
          parent_id: 'ou-work',
        },
      ],
      total_accounts: 2,
      truncated: false,
      policies: [
        {
          id: 'p-1',
          name: 'deny-unapproved-regions',
          type: 'SERVICE_CONTROL_POLICY',
          aws_managed: false,
          targets: ['ou-work'],
        },
      ],
    });
  });

  it('caps the accounts listed', async () => {
    const capped = await call(layer, 'organization_topology', { max_accounts: 1 });
    expect(capped).toMatchObject({ total_accounts: 2, truncated: true });
    expect(capped.accounts).toHaveLength(1);
    expect(capped).not.toHaveProperty('policies');
  });

  it('falls back to the hierarchy assets of the map', async () => {
    const topo = await call(layer, 'organization_topology', { dataset: 'report', include_policies: true });
    expect(topo).toMatchObject({ dataset: 'report', source: 'map_assets', total: 5, truncated: false });
    expect((topo.nodes as unknown[]).slice(0, 2)).toEqual([
      {
        id: 'org',
        name: 'sample-org',
        type: 'ORGANIZATION',
        account_id: '111111111111',
        parent_id: null,
        external: false,
      },
      {
        id: 'ou-workloads',
        name: 'Workloads',
        type: 'ORG_UNIT',
        account_id: '111111111111',
        parent_id: 'org',
        external: false,
      },
    ]);
    expect(topo.policies).toEqual([
      { id: 'scp-deny-regions', name: 'deny-unapproved-regions', targets: ['ou-workloads'] },
    ]);
  });

  it('returns source null and a note when there is no hierarchy at all', async () => {
    ws.addInventory({ assets: [] }, 'empty');
    const topo = await call(layer, 'organization_topology', { dataset: 'empty' });
    expect(topo).toMatchObject({ dataset: 'empty', source: null });
    expect(typeof topo.note).toBe('string');
  });
});

describe('edge briefs in get_asset', () => {
  it('print each endpoint next to its name, as the reference does', async () => {
    const asset = await call(layer, 'get_asset', { ref: 'web-1', max_relations: 1 });
    const [edge] = (asset.relations as { sample: Record<string, unknown>[] }).sample;
    expect(Object.keys(edge ?? {})).toEqual([
      'id',
      'source',
      'source_name',
      'target',
      'target_name',
      'edge_type',
      'relationship',
    ]);
  });
});
