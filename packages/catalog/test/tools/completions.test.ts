import type { Layer } from '@cloudg/core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { call, sampleLayer } from './support.js';

let layer: Layer<Workspace>;
beforeEach(async () => {
  ({ layer } = await sampleLayer());
  await call(layer, 'snapshot_dataset', { new_name: 'baseline' });
  await call(layer, 'load_dataset', { path: 'after', name: 'after', activate: false });
});

const assetTemplate = { type: 'ref/resource', uri: 'cloudg://assets/{+ref}' } as const;

describe('asset reference completion', () => {
  it('puts prefix matches first (sorted), then substring matches', async () => {
    expect(await layer.complete(assetTemplate, { name: 'ref', value: 'web' })).toEqual({
      values: ['web-1', 'web-2', 'web-acl', 'web-alb', 'web-tg', 'sg-web'],
      total: 6,
      hasMore: false,
    });
  });

  it('matches ARN prefixes and completes unique names to the name', async () => {
    const result = await layer.complete(
      { type: 'ref/resource', uri: 'cloudg://assets/{+ref}/neighbors' },
      { name: 'ref', value: 'arn:aws:iam' },
    );
    expect(result.total).toBe(7);
    expect(result.values.slice(0, 3)).toEqual(['api-lambda-role', 'app-role', 'bastion-admin']);
  });

  it('completes against the dataset named in the context arguments', async () => {
    expect(await layer.complete(assetTemplate, { name: 'ref', value: 'orders' })).toEqual({
      values: ['orders-db', 'orders-db-credentials'],
      total: 2,
      hasMore: false,
    });
    const inAfter = await layer.complete(
      assetTemplate,
      { name: 'ref', value: 'web' },
      { contextArguments: { dataset: 'after' } },
    );
    expect(inAfter.values).not.toContain('web-acl');
    expect(inAfter.total).toBe(5);
  });

  it('completes a name several assets share to their ARNs', async () => {
    const ws = layer.app;
    const sample = ws.get('sample');
    const twin = sample.indexes.assetById('web-2');
    if (!twin) throw new Error('web-2 missing');
    twin.name = 'web-1';
    ws.mutated(sample);
    const result = await layer.complete(assetTemplate, { name: 'ref', value: 'web-1' });
    expect(result.values).toEqual([
      'arn:aws:ec2:us-east-1:111111111111:instance/i-0web1',
      'arn:aws:ec2:us-east-1:111111111111:instance/i-0web2',
    ]);
  });

  it('offers nothing when nothing is loaded or the named dataset is unknown', async () => {
    const unknown = await layer.complete(
      assetTemplate,
      { name: 'ref', value: 'web' },
      { contextArguments: { dataset: 'nope' } },
    );
    expect(unknown).toEqual({ values: [], total: 0, hasMore: false });
  });
});

describe('dataset name completion', () => {
  it('completes loaded names by case-insensitive prefix', async () => {
    const ref = { type: 'ref/resource', uri: 'cloudg://datasets/{dataset}/summary' } as const;
    expect(await layer.complete(ref, { name: 'dataset', value: 'S' })).toEqual({
      values: ['sample'],
      total: 1,
      hasMore: false,
    });
    expect((await layer.complete(ref, { name: 'dataset', value: '' })).values).toEqual([
      'sample',
      'baseline',
      'after',
    ]);
  });
});
