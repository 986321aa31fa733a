import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCatalogLayer } from '../../src/index.js';
import { workspaceAt } from '../support/estate.js';
import { call, callError, estate, sampleLayer } from './support.js';

const NOT_CACHED = {
  graph: false,
  dependency_graph: false,
  ontology: false,
  centrality: false,
  rag_entity: false,
};

/** The dataset_summary of the sample inventory, timestamps aside. */
const SAMPLE_SUMMARY = {
  dataset: 'sample',
  kind: 'inventory',
  source: join(estate, 'inventory'),
  version: 0,
  providers: ['aws', 'azure', 'gcp'],
  total_assets: 44,
  total_edges: 56,
  total_findings: 12,
  open_findings: 11,
  suppressed_findings: 1,
  severity_breakdown: { CRITICAL: 2, HIGH: 5, MEDIUM: 2, LOW: 1, INFO: 1 },
  accounts: 5,
  regions: 5,
  internet_exposed: 6,
  cross_account_edges: 3,
  unlinked_assets: 2,
  unresolved_references: 1,
  has_organization: true,
  coverage_records: 0,
  organization: {
    id: 'o-sample',
    accounts: 2,
    ous: 1,
    control_tower: true,
    governed_regions: ['us-east-1', 'eu-west-1'],
  },
};

describe('workspace_status and list_datasets', () => {
  it('shows the directories and next steps when nothing is loaded', async () => {
    const layer = createCatalogLayer({ workspace: workspaceAt(estate) });
    const result = await layer.callTool('workspace_status', {});
    expect(result.structured).toEqual({
      active_dataset: null,
      datasets: [],
      allowed_roots: [estate],
      output_dir: join(estate, 'out'),
      providers_configured: ['aws'],
      next_steps: [
        "load_dataset(path='<dir with inventory-map.json or findings.json>')",
        "map_inventory(providers=['aws']) to collect live data (needs credentials)",
      ],
    });
    expect(result.content.filter((c) => c.type === 'resource_link')).toEqual([]);
  });

  it('lists loaded datasets in compact form and links the workspace resource', async () => {
    const { layer } = await sampleLayer({ report: true });
    const result = await layer.callTool('workspace_status', {});
    const status = result.structured as Record<string, unknown>;
    expect(status.active_dataset).toBe('sample');
    expect(status.next_steps).toBeUndefined();
    expect(status.datasets).toHaveLength(2);
    expect((status.datasets as unknown[])[0]).toMatchObject({
      name: 'sample',
      kind: 'inventory',
      source: join(estate, 'inventory'),
      version: 0,
      providers: ['aws', 'azure', 'gcp'],
      assets: 44,
      edges: 56,
      findings: 12,
      compliance_results: 8,
      cached: NOT_CACHED,
    });
    expect(result.content.slice(1)).toEqual([
      {
        type: 'resource_link',
        uri: 'cloudg://workspace',
        name: 'workspace',
        title: 'Workspace status',
        mimeType: 'application/json',
      },
    ]);
  });

  it('list_datasets flags the active dataset and counts them', async () => {
    const { layer } = await sampleLayer({ report: true });
    const listing = await call(layer, 'list_datasets');
    expect(listing).toMatchObject({ active_dataset: 'sample', total: 2 });
    expect((listing.datasets as Record<string, unknown>[]).map((d) => [d.name, d.active])).toEqual([
      ['sample', true],
      ['report', false],
    ]);
  });
});

describe('load_dataset', () => {
  it('loads the sample inventory, makes it active and links its summary', async () => {
    const layer = createCatalogLayer({ workspace: workspaceAt(estate) });
    const result = await layer.callTool('load_dataset', { path: join(estate, 'inventory'), name: 'sample' });
    expect(result.isError).toBe(false);
    const loaded = result.structured as Record<string, unknown>;
    expect(loaded).toMatchObject({ loaded: 'sample', active: true, ...SAMPLE_SUMMARY });
    expect(loaded.compliance_frameworks).toEqual([
      'CIS-AWS',
      'CIS-Azure',
      'CIS-GCP',
      'NIST-800-53',
      'PCI-DSS',
    ]);
    expect(Object.entries(loaded.assets_by_type as object).slice(0, 5)).toEqual([
      ['SECURITY_GROUP', 4],
      ['IAM_ROLE', 4],
      ['CLOUD_ACCOUNT', 3],
      ['EC2', 3],
      ['S3_BUCKET', 3],
    ]);
    expect(Object.keys(loaded.assets_by_type as object)).toHaveLength(15);
    expect(loaded.assets_by_provider).toEqual({ AWS: 36, AZURE: 5, GCP: 3 });
    expect(Object.entries(loaded.edges_by_type as object).slice(0, 5)).toEqual([
      ['CONTAINS', 12],
      ['GOVERNS', 1],
      ['SECURITY_GROUP_RULE', 4],
      ['INTERNET_EXPOSED', 4],
      ['ATTACHED_TO', 6],
    ]);
    expect(result.content.slice(1)).toEqual([
      {
        type: 'resource_link',
        uri: 'cloudg://datasets/sample/summary',
        name: 'sample summary',
        title: 'Dataset summary',
        mimeType: 'application/json',
      },
    ]);
  });

  it('loads the report by a relative path as a second, inactive dataset', async () => {
    const { layer, ws } = await sampleLayer();
    const loaded = await call(layer, 'load_dataset', {
      path: 'report/findings.json',
      name: 'report',
      activate: false,
    });
    expect(loaded).toMatchObject({
      loaded: 'report',
      active: false,
      dataset: 'report',
      kind: 'report',
      source: join(estate, 'report', 'findings.json'),
      total_assets: 44,
      unresolved_references: 0,
      has_organization: false,
    });
    expect(loaded.organization).toBeUndefined();
    expect(ws.activeName).toBe('sample');
  });

  it('refuses a path outside the allowed roots with -31001', async () => {
    const { layer } = await sampleLayer();
    const error = await callError(layer, 'load_dataset', { path: '/etc/passwd' });
    expect(error.code).toBe(-31001);
    expect(error.text).toMatch(/outside the allowed roots/);
  });

  it('refuses a missing path', async () => {
    const { layer } = await sampleLayer();
    const error = await callError(layer, 'load_dataset', { path: 'nope.json' });
    expect(error.code).toBe(-32602);
  });

  it('refuses a taken name before reading, suggesting a free one', async () => {
    const { layer } = await sampleLayer();
    expect(await callError(layer, 'load_dataset', { path: 'report/findings.json', name: 'sample' })).toEqual({
      text: 'A dataset with that name already exists. Choose another name (the error data suggests a free one), or pass replace=true to overwrite it.',
      code: -32602,
      data: { existing: 'sample', suggested: 'sample-2' },
    });
  });

  it('reads Prowler OCSF output (the gap the reference documents is fixed)', async () => {
    const { layer } = await sampleLayer();
    const loaded = await call(layer, 'load_dataset', { path: 'scans/prowler-ocsf.json', activate: false });
    expect(loaded).toMatchObject({ loaded: 'prowler-ocsf', kind: 'prowler', total_findings: 1 });
  });

  it('tells the layer what changed: list changed, then the three workspace URIs', async () => {
    const ws = workspaceAt(estate);
    const layer = createCatalogLayer({ workspace: ws });
    const events: [string, string | undefined][] = [];
    layer.onChange((kind, uri) => events.push([kind, uri]));
    await call(layer, 'load_dataset', { path: 'inventory', name: 'prod' });
    expect(events).toEqual([
      ['resources', undefined],
      ['resource', 'cloudg://workspace'],
      ['resource', 'cloudg://datasets'],
      ['resource', 'cloudg://datasets/prod/summary'],
    ]);
  });
});

describe('select_dataset, snapshot_dataset and unload_dataset', () => {
  it('selects a dataset and returns its listing entry', async () => {
    const { layer } = await sampleLayer({ report: true });
    const selected = await call(layer, 'select_dataset', { name: 'report' });
    expect(selected).toMatchObject({
      active_dataset: 'report',
      name: 'report',
      kind: 'report',
      source: join(estate, 'report', 'findings.json'),
      version: 0,
      providers: ['aws', 'azure', 'gcp'],
      assets: 44,
      edges: 56,
      findings: 12,
      compliance_results: 8,
      cached: NOT_CACHED,
    });
  });

  it('fails on an unknown name with the loaded datasets in the error data', async () => {
    const { layer } = await sampleLayer({ report: true });
    expect(await callError(layer, 'select_dataset', { name: 'prod' })).toEqual({
      text: 'No such dataset. 2 dataset(s) are loaded: they are listed with this error, or call list_datasets.',
      code: -32602,
      data: { value: 'prod', datasets: [{ dataset: 'sample' }, { dataset: 'report' }] },
    });
  });

  it('snapshots the active dataset without activating the copy', async () => {
    const { layer, ws } = await sampleLayer();
    const snap = await call(layer, 'snapshot_dataset', { new_name: 'baseline' });
    expect(snap).toMatchObject({
      snapshot: 'baseline',
      name: 'baseline',
      kind: 'snapshot',
      source: 'snapshot of sample',
      version: 0,
      assets: 44,
      edges: 56,
      findings: 12,
      compliance_results: 8,
    });
    expect(ws.activeName).toBe('sample');
  });

  it('refuses a snapshot name that is taken', async () => {
    const { layer } = await sampleLayer({ report: true });
    expect(await callError(layer, 'snapshot_dataset', { new_name: 'report' })).toMatchObject({
      code: -32602,
      data: { existing: 'report', suggested: 'report-2' },
    });
  });

  it('unloads a dataset; the most recently added one takes over when the active one goes', async () => {
    const { layer } = await sampleLayer({ report: true });
    await call(layer, 'load_dataset', { path: 'after', name: 'after' });
    await call(layer, 'snapshot_dataset', { new_name: 'pre-ingest' });
    await call(layer, 'select_dataset', { name: 'pre-ingest' });
    expect(await call(layer, 'unload_dataset', { name: 'pre-ingest' })).toEqual({
      unloaded: 'pre-ingest',
      active_dataset: 'after',
      remaining: ['sample', 'report', 'after'],
    });
  });
});

describe('diff_datasets', () => {
  it('compares a baseline snapshot with the edited copy', async () => {
    const { layer } = await sampleLayer({ report: true });
    await call(layer, 'snapshot_dataset', { new_name: 'baseline' });
    await call(layer, 'load_dataset', { path: 'after', name: 'after', activate: false });
    const diff = await call(layer, 'diff_datasets', { base: 'baseline', target: 'after' });
    const web2 = {
      id: 'web-2',
      key: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web2',
      name: 'web-2',
      type: 'EC2',
      account_id: '111111111111',
      region: 'us-east-1',
      changed_fields: ['internet_exposed', 'tags'],
      internet_exposed: { before: false, after: true },
    };
    expect(diff).toEqual({
      base: 'baseline',
      target: 'after',
      assets: {
        added: { count: 0, items: [], truncated: false },
        removed: {
          count: 1,
          items: [
            {
              id: 'waf-web',
              key: 'arn:aws:wafv2:us-east-1:111111111111:regional/webacl/web-acl/1',
              name: 'web-acl',
              type: 'WAF_WEB_ACL',
              account_id: '111111111111',
              region: 'us-east-1',
            },
          ],
          truncated: false,
        },
        changed: { count: 1, items: [web2], truncated: false },
        unchanged: 42,
      },
      edges: {
        added: {
          count: 1,
          items: [
            {
              source: '0.0.0.0/0',
              target: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web2',
              edge_type: 'INTERNET_EXPOSED',
              relationship: 'INTERNET_REACHABLE',
            },
          ],
          truncated: false,
        },
        removed: {
          count: 1,
          items: [
            {
              source: 'arn:aws:wafv2:us-east-1:111111111111:regional/webacl/web-acl/1',
              target: 'arn:aws:elasticloadbalancing:us-east-1:111111111111:loadbalancer/app/web-alb/abc',
              edge_type: 'PROTECTS',
              relationship: null,
            },
          ],
          truncated: false,
        },
      },
      findings: {
        new: { count: 0, items: [], truncated: false },
        resolved: {
          count: 1,
          items: [
            {
              id: 'f-ssh-open',
              title: 'Security group allows SSH (22) from 0.0.0.0/0',
              severity: 'CRITICAL',
              resource: 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0admin',
              source_tool: 'prowler',
            },
          ],
          truncated: false,
        },
        severity_changed: {
          count: 1,
          items: [
            {
              id: 'f-db-backup',
              title: 'RDS backup retention below 7 days',
              severity: 'HIGH',
              resource: 'arn:aws:rds:us-east-1:111111111111:db:orders-db',
              source_tool: 'prowler',
              severity_before: 'MEDIUM',
            },
          ],
          truncated: false,
        },
      },
      newly_internet_exposed: { count: 1, items: [web2], truncated: false },
    });
  });

  it('fails on an unknown base with every loaded dataset in the error data', async () => {
    const { layer } = await sampleLayer({ report: true });
    const error = await callError(layer, 'diff_datasets', { base: 'yesterday' });
    expect(error).toMatchObject({
      code: -32602,
      data: { value: 'yesterday', datasets: [{ dataset: 'sample' }, { dataset: 'report' }] },
    });
    expect(error.text).not.toContain('yesterday');
  });
});

describe('dataset_summary', () => {
  it('returns the headline numbers of the active dataset and links its resource', async () => {
    const { layer } = await sampleLayer();
    const result = await layer.callTool('dataset_summary', {});
    expect(result.structured).toMatchObject(SAMPLE_SUMMARY);
    expect(result.content.slice(1)).toEqual([
      {
        type: 'resource_link',
        uri: 'cloudg://datasets/sample/summary',
        name: 'sample summary',
        mimeType: 'application/json',
      },
    ]);
  });

  it('says how to load data when nothing is loaded', async () => {
    const layer = createCatalogLayer({ workspace: workspaceAt(estate) });
    expect(await callError(layer, 'dataset_summary')).toEqual({
      text: 'No dataset is loaded. Call load_dataset(path=...) with an inventory-map.json / findings.json / scanner report, or map_inventory to collect live data.',
      code: -32602,
      data: undefined,
    });
  });
});
