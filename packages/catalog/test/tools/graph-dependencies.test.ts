import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { call, callError, sampleLayer } from './support.js';

/** depends_on and dependents reproduce the reference's examples on the sample estate. */

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await sampleLayer());
});

type Obj = Record<string, unknown>;
const ids = (list: unknown) => (list as Obj[]).map((n) => n.id);

describe('depends_on', () => {
  it('lists the seven things api-handler needs, breadth-first, as documented', async () => {
    const s = await call(layer, 'depends_on', { ref: 'api-handler' });
    expect(s.asset).toMatchObject({ id: 'api-handler', type: 'LAMBDA_FUNCTION', open_findings: 1 });
    expect([s.total, s.returned, s.truncated]).toEqual([7, 7, false]);
    const items = s.items as Obj[];
    expect(ids(items).slice(0, 2)).toEqual(['api-gw', 'data-bucket']);
    expect(items[0]).toEqual({
      id: 'api-gw',
      name: 'public-api',
      type: 'API_GATEWAY',
      provider: 'AWS',
      region: 'us-east-1',
      account_id: '111111111111',
      arn: 'arn:aws:apigateway:us-east-1::/restapis/a1b2c3',
      internet_exposed: true,
      open_findings: 0,
      max_severity: null,
      uri: 'cloudg://assets/api-gw',
      via: 'INVOKES',
      relationship: null,
      depth: 1,
      parent_id: 'api-handler',
    });
    expect(items[1]).toMatchObject({ via: 'INVOKES', relationship: 'TRIGGERED_BY', depth: 1 });
    // The secret is reached through the Lambda's role, one level further up.
    expect(items.at(-1)).toMatchObject({ id: 'db-secret', depth: 2, parent_id: 'lambda-role' });
  });

  it('stops at max_depth and caps items at limit', async () => {
    const one = await call(layer, 'depends_on', { ref: 'api-handler', max_depth: 1 });
    expect([one.total, ids(one.items).includes('db-secret')]).toEqual([6, false]);
    const two = await call(layer, 'depends_on', { ref: 'api-handler', limit: 2 });
    expect([two.total, two.returned, two.truncated]).toEqual([7, 2, true]);
  });

  it('accepts every reference form the inventory tools accept', async () => {
    const byArn = await call(layer, 'depends_on', {
      ref: 'arn:aws:lambda:us-east-1:111111111111:function:api-handler',
    });
    expect(byArn.total).toBe(7);
  });
});

describe('dependents', () => {
  it('lists the four assets that need sg-app, as documented', async () => {
    const s = await call(layer, 'dependents', { ref: 'sg-app' });
    expect([s.total, s.returned, s.truncated]).toEqual([4, 4, false]);
    expect(ids(s.items)).toEqual(['web-1', 'web-2', 'tg-web', 'alb-web']);
    expect((s.items as Obj[])[1]).toMatchObject({
      id: 'web-2',
      via: 'ATTACHED_TO',
      relationship: null,
      depth: 1,
      parent_id: 'sg-app',
    });
    expect((s.items as Obj[])[3]).toMatchObject({
      via: 'LOAD_BALANCER_TARGET',
      depth: 3,
      parent_id: 'tg-web',
    });
  });
});

describe('errors', () => {
  it('suggests close matches for an unknown asset, like the inventory tools', async () => {
    for (const tool of ['depends_on', 'dependents']) {
      const e = await callError(layer, tool, { ref: 'web-3' });
      expect(e.code).toBe(-32602);
      expect(e.text).toMatch(/^No asset matches the reference in this dataset\./);
      expect(ids((e.data as Obj).suggestions)).toContain('web-1');
    }
  });

  it('refuses a max_depth above 15 and a limit above 500', async () => {
    expect(await callError(layer, 'depends_on', { ref: 'web-1', max_depth: 16 })).toEqual({
      text: 'Invalid arguments: max_depth: Input should be less than or equal to 15',
      code: -32602,
      data: [{ loc: 'max_depth', msg: 'Input should be less than or equal to 15', type: 'less_than_equal' }],
    });
    const e = await callError(layer, 'dependents', { ref: 'web-1', limit: 501 });
    expect(e.text).toBe('Invalid arguments: limit: Input should be less than or equal to 500');
  });
});
