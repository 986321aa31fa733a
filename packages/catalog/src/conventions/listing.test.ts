import { InvalidArgumentsError } from '@cloudg/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { sampleWorkspace } from '../../test/support/estate.js';
import type { Dataset } from '../dataset/dataset.js';
import { EDGE_TYPES } from '../model/vocabulary.js';
import type { Workspace } from '../workspace/workspace.js';
import { assetBrief, findingBrief } from './briefs.js';
import { resolveDataset } from './dataset-arg.js';
import { parseEnum, parseSeverity } from './enums.js';
import { paginate } from './paging.js';
import { ASSET_FIELDS, checkFields, project } from './projection.js';
import { severityFilter } from './severity.js';
import { sortAssets, sortFindings } from './sorting.js';

let ws: Workspace;
let ds: Dataset;
beforeEach(async () => {
  ws = await sampleWorkspace();
  ds = resolveDataset(ws);
});

/** find_assets(sort_by="risk", fields=[...]) as the tool will compute it. */
function findAssetsByRisk(args: Record<string, unknown>) {
  const fields = checkFields(args.fields as string[], ASSET_FIELDS);
  const sorted = sortAssets(ds, ds.assets, String(args.sort_by ?? 'name'));
  const page = paginate(sorted, {
    dataset: ds,
    query: args,
    limit: args.limit as number,
    cursor: args.cursor as string,
  });
  return { ...page, items: page.items.map((a) => project({ ...assetBrief(ds, a) }, fields)) };
}

describe('pagination with cursors', () => {
  const args = { sort_by: 'risk', limit: 3, fields: ['name', 'type', 'max_severity', 'open_findings'] };

  it('reproduces the first two pages of the risk-sorted search', () => {
    const first = findAssetsByRisk(args);
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
    const second = findAssetsByRisk({ ...args, cursor: first.next_cursor });
    expect(second).toMatchObject({ total: 44, offset: 3, returned: 3, truncated: true });
    expect(second.next_cursor).toBe(`c6.${first.next_cursor?.split('.')[1]}`);
    expect(second.items.map((i) => i.id)).toEqual(['az-nsg', 'gcp-gcs', 'web-1']);
  });

  it('lets the page size change between pages', () => {
    const first = findAssetsByRisk(args);
    const second = findAssetsByRisk({ ...args, limit: 41, cursor: first.next_cursor });
    expect(second).toMatchObject({ offset: 3, returned: 41, next_cursor: null, truncated: false });
  });

  it('refuses a cursor reused with other filters, after a mutation, or from a replaced dataset', async () => {
    const cursor = findAssetsByRisk(args).next_cursor;
    const stale =
      'Stale cursor: the query arguments or the dataset changed since it was issued. Repeat the call without cursor to start again.';
    expect(() => findAssetsByRisk({ sort_by: 'name', limit: 3, cursor })).toThrow(stale);
    ws.mutated(ds);
    expect(() => findAssetsByRisk({ ...args, cursor })).toThrow(stale);
    const fresh = findAssetsByRisk(args).next_cursor;
    ds = await ws.load('inventory', { name: 'sample', replace: true });
    expect(() => findAssetsByRisk({ ...args, cursor: fresh })).toThrow(stale);
  });

  it('refuses anything that is not a cursor', () => {
    expect(() => findAssetsByRisk({ cursor: 'eyJvZmZzZXQiOjN9' })).toThrow(
      'Invalid cursor. Pass the next_cursor value from the previous result unchanged, or omit cursor to start from the first page.',
    );
    expect(() => findAssetsByRisk({ cursor: 'eyJvZmZzZXQiOjN9' })).toThrow(InvalidArgumentsError);
  });

  it('checks limit bounds', () => {
    expect(() => paginate([], { dataset: ds, query: {}, limit: 0 })).toThrow(InvalidArgumentsError);
    expect(() => paginate([], { dataset: ds, query: {}, limit: 501 })).toThrow(InvalidArgumentsError);
    expect(paginate([1, 2], { dataset: ds, query: {} })).toEqual({
      total: 2,
      offset: 0,
      returned: 2,
      next_cursor: null,
      truncated: false,
      items: [1, 2],
    });
  });
});

describe('field projection', () => {
  it('refuses unknown fields with the valid list, the unknown names in the data only', () => {
    let error: unknown;
    try {
      checkFields(['owner'], ASSET_FIELDS);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: -32602,
      message:
        'Unknown field(s). Valid fields: id, name, type, provider, region, account_id, arn, internet_exposed, open_findings, max_severity, tags, uri',
      data: { value: ['owner'], valid: [...ASSET_FIELDS] },
    });
  });

  it('always keeps id first', () => {
    expect(checkFields(['type', 'id', 'type'], ASSET_FIELDS)).toEqual(['id', 'type']);
    expect(checkFields([], ASSET_FIELDS)).toBeNull();
  });
});

describe('finding order and filters', () => {
  const open = () => ds.findings.filter((f) => !f.is_suppressed);

  it('sorts by risk, then severity, then id', () => {
    const sorted = sortFindings(open(), 'risk').map((f) => f.id);
    expect(sorted).toHaveLength(11);
    expect(sorted.slice(0, 2)).toEqual(['f-rdp-open', 'f-ssh-open']);
    const pci = sortFindings(
      open().filter((f) => f.compliance_frameworks.some((fw) => fw.toLowerCase().includes('pci'))),
      'risk',
    );
    expect(pci.map((f) => f.id)).toEqual(['f-ssh-open', 'f-web-cve', 'f-logs-public']);
  });

  it('filters by minimum severity and exact sets, parsing case-insensitively', () => {
    const atLeastHigh = severityFilter({ minSeverity: 'high' });
    expect(open().filter((f) => atLeastHigh?.(f.severity)).length).toBe(7);
    const lowOrInfo = severityFilter({ severities: ['low', 'Info'] });
    expect(
      open()
        .filter((f) => lowOrInfo?.(f.severity))
        .map((f) => f.id),
    ).toEqual(['f-lambda-runtime', 'f-default-vpc']);
    expect(severityFilter({})).toBeNull();
  });
});

describe('severity and enumerated arguments', () => {
  it('parses severities in any case and with - or spaces', () => {
    expect(parseSeverity('critical')).toBe('CRITICAL');
    expect(parseSeverity(' Info ')).toBe('INFO');
  });

  it('refuses an unknown severity with the valid list', () => {
    expect(() => parseSeverity('SEVERE')).toThrow(
      expect.objectContaining({
        code: -32602,
        message: 'Unknown severity. Valid values: CRITICAL, HIGH, MEDIUM, LOW, INFO',
        data: { value: 'SEVERE', valid: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'], close_matches: [] },
      }),
    );
  });

  it('names close values of an unknown edge type', () => {
    let error: unknown;
    try {
      parseEnum('edge type', 'ASSUMES', EDGE_TYPES);
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toMatch(
      /^Unknown edge type\. Did you mean ASSUMES_ROLE\? Valid values: SECURITY_GROUP_RULE, NACL_RULE, ROUTE, IAM_TRUST, IAM_POLICY_ATTACHMENT, CONTAINS, PEERING, LOAD_BALANCER_TARGET, INTERNET_EXPOSED, ATTACHED/,
    );
    expect(error).toMatchObject({
      data: { value: 'ASSUMES', valid: [...EDGE_TYPES], close_matches: ['ASSUMES_ROLE'] },
    });
    expect(parseEnum('edge type', 'assumes-role', EDGE_TYPES)).toBe('ASSUMES_ROLE');
    expect(parseEnum('edge type', 'load balancer target', EDGE_TYPES)).toBe('LOAD_BALANCER_TARGET');
  });

  it('lists at most 30 valid values in the message', () => {
    const many = Array.from({ length: 40 }, (_, i) => `TYPE_${i}`);
    expect(() => parseEnum('asset type', 'nope', many)).toThrow(/TYPE_29, \.\.\.$/);
  });
});

describe('briefs', () => {
  it('describe an asset as get_finding shows it', () => {
    const sg = ds.indexes.assetById('sg-admin');
    expect(sg && assetBrief(ds, sg)).toEqual({
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
    });
  });

  it('describe findings as list_findings shows them', () => {
    const byId = (id: string) => ds.findings.find((f) => f.id === id);
    const ssh = byId('f-ssh-open');
    expect(ssh && findingBrief(ds, ssh)).toEqual({
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
    });
    const cve = byId('f-web-cve');
    expect(cve && findingBrief(ds, cve)).toMatchObject({
      risk_score: 7.8,
      cvss_score: 8.1,
      asset_id: 'web-1',
    });
    const suppressed = byId('f-versioning');
    expect(suppressed && findingBrief(ds, suppressed)).toMatchObject({
      risk_score: 2.5,
      is_suppressed: true,
      asset_id: 'data-bucket',
      asset_name: 'prod-data',
    });
    const ghost = byId('f-ghost');
    expect(ghost && findingBrief(ds, ghost)).toMatchObject({ asset_id: null, asset_name: null });
  });
});
