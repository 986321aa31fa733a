import { describe, expect, it } from 'vitest';
import { type CloudAsset, createCatalogLayer, Dataset, Workspace } from '../../src/index.js';
import { call, estate } from './support.js';

/** 3,000 assets with names in mixed case and shared names, enough for the cached name order. */
function largeLayer() {
  const assets: CloudAsset[] = [];
  for (let i = 0; i < 3000; i += 1) {
    const n = (i * 7919) % 1500; // every name twice
    assets.push({
      id: `a-${String(i).padStart(4, '0')}`,
      arn: `arn:aws:ec2:us-east-1:123456789012:instance/i-${i}`,
      name: i % 2 ? `Host-${n}` : `host-${n}`,
      asset_type: 'EC2',
      provider: 'AWS',
      region: 'us-east-1',
      account_id: '123456789012',
      tags: { team: i % 3 === 0 ? 'Blue' : 'red' },
      metadata: {},
      collected_at: null,
      is_internet_exposed: false,
    });
  }
  const ws = new Workspace({ allowedRoots: [estate], cwd: estate });
  ws.add(new Dataset({ name: 'large', kind: 'inventory', source: 'inline', assets }));
  return { layer: createCatalogLayer({ workspace: ws }), assets };
}

const byName = (a: CloudAsset, b: CloudAsset) => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

describe('find_assets over a large inventory', () => {
  it('pages every asset in name order (case-insensitive, then id), forwards and backwards', async () => {
    const { layer, assets } = largeLayer();
    const expected = [...assets].sort(byName).map((a) => a.id);
    const ids: string[] = [];
    let cursor = '';
    do {
      const page = await call(layer, 'find_assets', { limit: 500, cursor, fields: ['name'] });
      ids.push(...(page.items as { id: string }[]).map((i) => i.id));
      cursor = (page.next_cursor as string | null) ?? '';
    } while (cursor);
    expect(ids).toEqual(expected);
    const last = await call(layer, 'find_assets', { limit: 3, descending: true });
    expect((last.items as { id: string }[]).map((i) => i.id)).toEqual(expected.slice(-3).reverse());
  });

  it('keeps the order for a filtered subset once the dataset-wide order exists', async () => {
    const { layer, assets } = largeLayer();
    await call(layer, 'find_assets', { limit: 1 });
    const blue = await call(layer, 'find_assets', { query: 'blue', limit: 500 });
    const expected = assets.filter((a) => a.tags.team === 'Blue').sort(byName);
    expect(blue.total).toBe(expected.length);
    expect((blue.items as { id: string }[]).map((i) => i.id)).toEqual(
      expected.slice(0, 500).map((a) => a.id),
    );
  });
});
