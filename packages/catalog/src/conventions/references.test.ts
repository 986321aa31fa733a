import { beforeAll, describe, expect, it } from 'vitest';
import { sampleWorkspace } from '../../test/support/estate.js';
import { Dataset } from '../dataset/dataset.js';
import { CloudAssetSchema } from '../model/asset.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';
import type { Workspace } from '../workspace/workspace.js';
import { resolveDataset } from './dataset-arg.js';
import { findAsset, resolveAssetRef } from './references.js';

let ws: Workspace;
beforeAll(async () => {
  ws = await sampleWorkspace();
});

describe('asset references', () => {
  it.each([
    ['web-1', 'web-1'],
    ['arn:aws:ec2:us-east-1:111111111111:instance/i-0web1', 'web-1'],
    ['prod-data', 'data-bucket'],
    ['i-0web1', 'web-1'],
    ['sg-0admin', 'sg-admin'],
    ['function:api-handler', 'api-handler'],
    ['db:orders-db', 'orders-db'],
    ['instance/i-0web1', 'web-1'],
    ['PROD-DATA', 'data-bucket'],
    [
      '/SUBSCRIPTIONS/00000000-AAAA-BBBB-CCCC-000000000001/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/jump-nsg',
      'az-nsg',
    ],
    ['jump-vm', 'az-vm'],
  ])('%s resolves to %s', (ref, id) => {
    expect(resolveAssetRef(resolveDataset(ws), ref).id).toBe(id);
  });

  it('suggests close assets on a miss, without repeating the reference in the message', () => {
    const dataset = resolveDataset(ws);
    let error: unknown;
    try {
      resolveAssetRef(dataset, 'web-3');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ReferenceNotFoundError);
    expect(error).toMatchObject({
      code: -32602,
      message:
        'No asset matches the reference in this dataset. 5 close matches are listed with this error. Use find_assets(query=...) to search by name, ARN or tag.',
      data: { value: 'web-3', dataset: 'sample' },
    });
    const suggestions = (error as ReferenceNotFoundError & { data: { suggestions: { id: string }[] } }).data
      .suggestions;
    expect(suggestions.map((s) => s.id)).toEqual(['web-2', 'web-1', 'tg-web', 'alb-web', 'waf-web']);
    expect(suggestions[0]).toEqual({
      id: 'web-2',
      name: 'web-2',
      arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web2',
      type: 'EC2',
      account_id: '111111111111',
      dataset: 'sample',
    });
  });

  it('puts substring hits first', () => {
    expect(() => resolveAssetRef(resolveDataset(ws), 'orders')).toThrow(
      expect.objectContaining({
        data: expect.objectContaining({
          suggestions: [
            expect.objectContaining({ id: 'orders-db' }),
            expect.objectContaining({ id: 'db-secret' }),
          ],
        }),
      }),
    );
  });

  it('says nothing about matches when there are none', () => {
    expect(() => resolveAssetRef(resolveDataset(ws), 'zzzzzzzzzzzz')).toThrow(
      'No asset matches the reference in this dataset. Use find_assets(query=...) to search by name, ARN or tag.',
    );
  });

  it('refuses a name several assets share, listing ids and candidates in the data', () => {
    const asset = (id: string, arn: string) =>
      CloudAssetSchema.parse({
        id,
        arn,
        name: 'shared',
        asset_type: 'EC2',
        provider: 'aws',
        account_id: '1',
      });
    const ds = new Dataset({
      name: 'dup',
      kind: 'generic',
      source: 'inline',
      assets: [asset('a', 'arn:aws:ec2:r:1:instance/i-a'), asset('b', 'arn:aws:ec2:r:1:instance/i-b')],
    });
    expect(() => resolveAssetRef(ds, 'shared')).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/^The reference matches 2 assets in this dataset\./),
        data: expect.objectContaining({
          value: 'shared',
          ambiguous: ['a', 'b'],
          candidates: [expect.objectContaining({ id: 'a' }), expect.objectContaining({ id: 'b' })],
        }),
      }),
    );
    // The looser steps are skipped for an ambiguous exact name: SHARED does not pick one.
    expect(findAsset(ds, 'SHARED')).toBeNull();
    expect(findAsset(ds, 'i-b')?.id).toBe('b');
  });
});

describe('indexes', () => {
  it('look up assets by account, type, region and tag in dataset order', () => {
    const idx = resolveDataset(ws).indexes;
    expect(idx.byAccount.get('222222222222')?.map((a) => a.id)).toEqual([
      'acct-shared',
      'deploy-role',
      'artifacts-bucket',
      'ecr-repo',
    ]);
    expect(idx.byType.get('SECURITY_GROUP')?.map((a) => a.id)).toEqual([
      'sg-web',
      'sg-admin',
      'sg-app',
      'sg-db',
    ]);
    expect(idx.byRegion.get('europe-west1')).toHaveLength(3);
    expect(idx.assetsWithTag('data', 'pii').map((a) => a.id)).toEqual(['orders-db', 'data-bucket']);
    expect(idx.assetsWithTag('owner').map((a) => a.id)).toEqual([
      'vpc-prod',
      'alb-web',
      'web-1',
      'web-2',
      'bastion',
      'api-handler',
      'az-vm',
    ]);
    expect(idx.outgoing('0.0.0.0/0')).toHaveLength(7);
    expect(idx.incoming('deploy-role').map((e) => e.id)).toEqual(['e-app-deploy', 'e-vendor-deploy']);
  });

  it('match findings to assets and leave the unmatched one unmapped', () => {
    const ds = resolveDataset(ws);
    const idx = ds.indexes;
    const mapped = ds.findings.map((f) => [f.id, idx.assetOfFinding(f)?.id ?? null]);
    expect(mapped).toEqual([
      ['f-ssh-open', 'sg-admin'],
      ['f-bastion-imds', 'bastion'],
      ['f-db-backup', 'orders-db'],
      ['f-logs-public', 'logs-bucket'],
      ['f-web-cve', 'web-1'],
      ['f-lambda-runtime', 'api-handler'],
      ['f-deploy-trust', 'deploy-role'],
      ['f-rdp-open', 'az-nsg'],
      ['f-gcs-public', 'gcp-gcs'],
      ['f-default-vpc', 'vpc-prod'],
      ['f-ghost', null],
      ['f-versioning', 'data-bucket'],
    ]);
    expect(idx.findingStats('data-bucket')).toEqual({ open: 0, maxSeverity: null, maxRisk: 0 });
    expect(idx.findingStats('api-handler')).toEqual({ open: 1, maxSeverity: 'LOW', maxRisk: 2.5 });
  });

  it('are rebuilt after the dataset changes', () => {
    const ds = resolveDataset(ws);
    const before = ds.indexes;
    expect(ds.indexes).toBe(before);
    ds.touch();
    expect(ds.indexes).not.toBe(before);
  });
});
