import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { workspaceAt } from '../../test/support/estate.js';
import { sampleEstateDir } from '../sample-estate/paths.js';
import type { Workspace } from './workspace.js';

let ws: Workspace;
beforeEach(async () => {
  ws = workspaceAt(sampleEstateDir());
  await ws.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
});

describe('snapshot', () => {
  it('deep copies the dataset under a new name, inactive, with kind snapshot', () => {
    const copy = ws.snapshot('', 'baseline');
    expect(ws.activeName).toBe('sample');
    expect(copy).toMatchObject({
      name: 'baseline',
      kind: 'snapshot',
      source: 'snapshot of sample',
      version: 0,
    });
    expect(copy.assets).toHaveLength(44);
    expect(copy.findings).toHaveLength(12);
    expect(copy.compliance).toHaveLength(8);
    expect(copy.organization?.organization_id).toBe('o-sample');
    const original = ws.get('sample');
    const finding = copy.findings.find((f) => f.id === 'f-default-vpc');
    if (finding) finding.is_suppressed = true;
    expect(original.findings.find((f) => f.id === 'f-default-vpc')?.is_suppressed).toBe(false);
  });

  it('refuses a taken name with a suggestion', () => {
    expect(() => ws.snapshot('sample', 'sample')).toThrow(
      expect.objectContaining({ code: -32602, data: { existing: 'sample', suggested: 'sample-2' } }),
    );
  });
});

describe('diff (the diff_datasets example)', () => {
  it('reports the edits between the baseline and after/', async () => {
    ws.snapshot('', 'baseline');
    await ws.load(join(sampleEstateDir(), 'after'), { name: 'after' });
    const diff = ws.diff('baseline', 'after');
    expect(diff.base).toBe('baseline');
    expect(diff.target).toBe('after');
    expect(diff.assets.added).toEqual({ count: 0, items: [], truncated: false });
    expect(diff.assets.removed.items).toEqual([
      {
        id: 'waf-web',
        key: 'arn:aws:wafv2:us-east-1:111111111111:regional/webacl/web-acl/1',
        name: 'web-acl',
        type: 'WAF_WEB_ACL',
        account_id: '111111111111',
        region: 'us-east-1',
      },
    ]);
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
    expect(diff.assets.changed).toEqual({ count: 1, items: [web2], truncated: false });
    expect(diff.assets.unchanged).toBe(42);
    expect(diff.edges.added.items).toEqual([
      {
        source: '0.0.0.0/0',
        target: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web2',
        edge_type: 'INTERNET_EXPOSED',
        relationship: 'INTERNET_REACHABLE',
      },
    ]);
    expect(diff.edges.removed.items).toEqual([
      {
        source: 'arn:aws:wafv2:us-east-1:111111111111:regional/webacl/web-acl/1',
        target: 'arn:aws:elasticloadbalancing:us-east-1:111111111111:loadbalancer/app/web-alb/abc',
        edge_type: 'PROTECTS',
        relationship: null,
      },
    ]);
    expect(diff.findings.new.count).toBe(0);
    expect(diff.findings.resolved.items).toEqual([
      {
        id: 'f-ssh-open',
        title: 'Security group allows SSH (22) from 0.0.0.0/0',
        severity: 'CRITICAL',
        resource: 'arn:aws:ec2:us-east-1:111111111111:security-group/sg-0admin',
        source_tool: 'prowler',
      },
    ]);
    expect(diff.findings.severity_changed.items).toEqual([
      {
        id: 'f-db-backup',
        title: 'RDS backup retention below 7 days',
        severity: 'HIGH',
        resource: 'arn:aws:rds:us-east-1:111111111111:db:orders-db',
        source_tool: 'prowler',
        severity_before: 'MEDIUM',
      },
    ]);
    expect(diff.newly_internet_exposed).toEqual({ count: 1, items: [web2], truncated: false });
  });

  it('caps every section at limit and says so', async () => {
    ws.snapshot('', 'baseline');
    await ws.load(join(sampleEstateDir(), 'report', 'findings.json'), { name: 'report' });
    const empty = ws.diff('baseline', 'sample', 1);
    expect(empty.assets.unchanged).toBe(44);
    const base = ws.get('baseline');
    base.assets = base.assets.slice(0, 40);
    ws.mutated(base);
    const diff = ws.diff('baseline', 'sample', 2);
    expect(diff.assets.added).toMatchObject({ count: 4, truncated: true });
    expect(diff.assets.added.items).toHaveLength(2);
  });

  it('compares against the active dataset when the target is empty', () => {
    ws.snapshot('', 'baseline');
    expect(ws.diff('baseline').target).toBe('sample');
    expect(() => ws.diff('yesterday')).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ value: 'yesterday' }) }),
    );
  });
});
