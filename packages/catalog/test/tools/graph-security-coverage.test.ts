import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset, type Workspace } from '../../src/index.js';
import type { CloudAsset } from '../../src/model/asset.js';
import { call, callError, sampleLayer } from './support.js';

/** security_coverage reproduces the reference's example on the sample estate. */

let layer: Layer<Workspace>;
let ws: Workspace;
beforeAll(async () => {
  ({ layer, ws } = await sampleLayer());
});

type Obj = Record<string, unknown>;

describe('security_coverage', () => {
  it('reports services, the Security Hub gap, four unscanned workloads and the API without a WAF', async () => {
    const s = await call(layer, 'security_coverage', {});
    expect(s.services_by_account_region).toEqual({
      '111111111111': { 'us-east-1': { guardduty: true, securityhub: false, inspector: true } },
    });
    expect(s.gaps).toEqual({
      total: 1,
      returned: 1,
      truncated: false,
      items: ['111111111111/us-east-1: securityhub'],
    });
    const unscanned = s.workloads_without_vulnerability_scanning as Obj;
    expect([unscanned.total, unscanned.returned, unscanned.truncated]).toEqual([4, 4, false]);
    expect((unscanned.items as Obj[]).map((i) => i.name)).toEqual([
      'web-2',
      'bastion',
      'api-handler',
      'app-images',
    ]);
    expect((unscanned.items as Obj[])[0]).toEqual({
      name: 'web-2',
      arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web2',
      type: 'EC2',
      account_id: '111111111111',
      region: 'us-east-1',
    });
    expect(s.internet_facing_without_waf).toEqual({
      total: 1,
      returned: 1,
      truncated: false,
      items: [
        {
          name: 'public-api',
          arn: 'arn:aws:apigateway:us-east-1::/restapis/a1b2c3',
          type: 'API_GATEWAY',
          account_id: '111111111111',
        },
      ],
    });
  });

  it('caps each list at limit', async () => {
    const s = await call(layer, 'security_coverage', { limit: 1 });
    expect(s.workloads_without_vulnerability_scanning).toMatchObject({
      total: 4,
      returned: 1,
      truncated: true,
    });
    expect(await callError(layer, 'security_coverage', { limit: 0 })).toMatchObject({
      text: 'Invalid arguments: limit: Input should be greater than or equal to 1',
    });
  });

  it('counts a service enabled when any of its assets there is, and a disabled scanner covers nothing', async () => {
    const base = ws.get('sample');
    const extra = (id: string, enabled: boolean): CloudAsset => ({
      ...(base.assets.find((a) => a.id === 'inspector') as CloudAsset),
      id,
      metadata: { security_service: 'inspector', enabled },
    });
    const assets = [
      ...base.assets.filter((a) => a.id !== 'inspector'),
      extra('insp-off', false),
      extra('insp-on', true),
    ];
    const edges = base.edges.map((e) => (e.source_id === 'inspector' ? { ...e, source_id: 'insp-off' } : e));
    ws.add(new Dataset({ name: 'coverage', kind: 'inventory', source: 'inline', assets, edges }));
    const s = await call(layer, 'security_coverage', { dataset: 'coverage' });
    expect((s.services_by_account_region as Obj)['111111111111']).toEqual({
      'us-east-1': { guardduty: true, securityhub: false, inspector: true },
    });
    // web-1 is monitored only by the disabled scanner now.
    expect((s.workloads_without_vulnerability_scanning as Obj).total).toBe(5);
  });
});
