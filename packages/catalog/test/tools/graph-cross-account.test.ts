import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { call, callError, sampleLayer } from './support.js';

/** cross_account_edges reproduces the reference's examples on the sample estate. */

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await sampleLayer());
});

type Obj = Record<string, unknown>;
const VENDOR_TRUST = {
  source: 'arn:aws:iam::999999999999:root',
  source_account: '999999999999',
  target: 'arn:aws:iam::222222222222:role/deploy-role',
  target_account: '222222222222',
  edge_type: 'IAM_TRUST',
  relationship: 'CROSS_ACCOUNT_TRUST',
  external: true,
};

describe('cross_account_edges', () => {
  it('lists the three crossings by ARN with counts per account pair, as documented', async () => {
    const s = await call(layer, 'cross_account_edges', {});
    expect([s.total, s.offset, s.returned, s.next_cursor, s.truncated]).toEqual([3, 0, 3, null, false]);
    expect(s.by_account_pair).toEqual({
      '111111111111 -> 222222222222': 2,
      '999999999999 -> 222222222222': 1,
    });
    const items = s.items as Obj[];
    expect(items[0]).toEqual({
      source: 'arn:aws:iam::111111111111:role/app-role',
      source_account: '111111111111',
      target: 'arn:aws:iam::222222222222:role/deploy-role',
      target_account: '222222222222',
      edge_type: 'IAM_TRUST',
      relationship: 'CROSS_ACCOUNT_TRUST',
      external: false,
    });
    expect(items[1]).toEqual(VENDOR_TRUST);
    expect(items[2]).toMatchObject({ edge_type: 'USES_IMAGE', relationship: null, external: false });
  });

  it('keeps only the external trust with external_only, as documented', async () => {
    const s = await call(layer, 'cross_account_edges', { external_only: true });
    expect([s.total, s.by_account_pair, s.items]).toEqual([
      1,
      { '999999999999 -> 222222222222': 1 },
      [VENDOR_TRUST],
    ]);
  });

  it('filters by account and edge type, and counts pairs over every match, not the page', async () => {
    const vendor = await call(layer, 'cross_account_edges', { account_id: '999999999999' });
    expect(vendor.total).toBe(1);
    const images = await call(layer, 'cross_account_edges', { edge_types: ['USES_IMAGE'] });
    expect((images.items as Obj[]).map((i) => i.edge_type)).toEqual(['USES_IMAGE']);
    const first = await call(layer, 'cross_account_edges', { limit: 1 });
    expect([first.returned, first.truncated]).toEqual([1, true]);
    expect(first.by_account_pair).toEqual({
      '111111111111 -> 222222222222': 2,
      '999999999999 -> 222222222222': 1,
    });
    const second = await call(layer, 'cross_account_edges', {
      limit: 1,
      cursor: first.next_cursor as string,
    });
    expect([second.offset, (second.items as Obj[])[0]]).toEqual([1, VENDOR_TRUST]);
  });

  it('refuses an unknown edge type and a cursor from another query', async () => {
    const e = await callError(layer, 'cross_account_edges', { edge_types: ['IAM_TRUSTS'] });
    expect(e.text).toMatch(/^Unknown edge type\. Did you mean IAM_TRUST\?/);
    const first = await call(layer, 'cross_account_edges', { limit: 1 });
    const stale = await callError(layer, 'cross_account_edges', {
      limit: 1,
      external_only: true,
      cursor: first.next_cursor as string,
    });
    expect(stale.text).toMatch(/^Stale cursor/);
  });
});
