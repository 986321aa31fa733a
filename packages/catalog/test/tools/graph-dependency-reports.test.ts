import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { dependentCounter } from '../../src/tools/graph/dependent-counts.js';
import { call, callError, sampleLayer } from './support.js';

/** dependency_tree, shared_dependencies and largest_blast_radius on the sample estate. */

let layer: Layer<Workspace>;
let ws: Workspace;
beforeAll(async () => {
  ({ layer, ws } = await sampleLayer());
});

type Obj = Record<string, unknown>;
const ids = (list: unknown) => (list as Obj[]).map((n) => n.id);

describe('dependency_tree', () => {
  it('nests what api-handler needs two levels deep, as documented', async () => {
    const s = await call(layer, 'dependency_tree', { ref: 'api-handler', direction: 'both', max_depth: 2 });
    expect(s.asset).toEqual({
      id: 'api-handler',
      name: 'api-handler',
      arn: 'arn:aws:lambda:us-east-1:111111111111:function:api-handler',
      type: 'LAMBDA_FUNCTION',
      account_id: '111111111111',
      region: 'us-east-1',
    });
    const up = s.depends_on as Obj[];
    expect(ids(up)).toEqual(['api-gw', 'data-bucket', 'lambda-role', 'log-group', 'kms-main', 'ecr-repo']);
    expect(up[1]).toEqual({
      id: 'data-bucket',
      name: 'prod-data',
      arn: 'arn:aws:s3:::prod-data',
      type: 'S3_BUCKET',
      account_id: '111111111111',
      region: 'us-east-1',
      via: 'INVOKES',
      relationship: 'TRIGGERED_BY',
      children: [],
    });
    // The secret sits under the role the Lambda assumes, where the walk first reached it.
    expect(ids(up[2]?.children)).toEqual(['db-secret']);
    expect([s.dependents, s.truncated]).toEqual([[], false]);
  });

  it('cuts the downstream tree of kms-main to two nodes and says so', async () => {
    const s = await call(layer, 'dependency_tree', { ref: 'kms-main', direction: 'down', max_nodes: 2 });
    expect('depends_on' in s).toBe(false);
    expect(ids(s.dependents)).toEqual(['api-handler', 'data-bucket']);
    expect((s.dependents as Obj[]).map((n) => [n.via, n.relationship, n.children])).toEqual([
      ['REFERENCES', 'ENCRYPTED_BY_KMS', []],
      ['REFERENCES', 'ENCRYPTED_BY_KMS', []],
    ]);
    expect(s.truncated).toBe(true);
    // With room for every node nothing is cut.
    const all = await call(layer, 'dependency_tree', { ref: 'kms-main', direction: 'down' });
    expect(all.truncated).toBe(false);
  });

  it('counts account containment only with include_hierarchy', async () => {
    const plain = await call(layer, 'dependency_tree', { ref: 'acct-prod', direction: 'down' });
    expect(plain.dependents).toEqual([]);
    const withHierarchy = await call(layer, 'dependency_tree', {
      ref: 'acct-prod',
      direction: 'down',
      max_depth: 1,
      include_hierarchy: true,
    });
    expect(ids(withHierarchy.dependents)).toEqual(['vpc-prod']);
  });

  it('refuses an unknown direction and a depth above 6', async () => {
    const e = await callError(layer, 'dependency_tree', { ref: 'web-1', direction: 'sideways' });
    expect(e.code).toBe(-32602);
    expect(e.text).toMatch(/^Invalid arguments: direction: Input should be 'up', 'down' or 'both'/);
    const d = await callError(layer, 'dependency_tree', { ref: 'web-1', max_depth: 7 });
    expect(d.text).toBe('Invalid arguments: max_depth: Input should be less than or equal to 6');
    const r = await callError(layer, 'dependency_tree', { ref: 'web-3' });
    expect(r.text).toMatch(/^No asset matches the reference in this dataset\./);
  });
});

describe('shared_dependencies', () => {
  it('ranks kms-main first with four direct dependents, as documented', async () => {
    const s = await call(layer, 'shared_dependencies', { top: 5 });
    expect(s.returned).toBe(5);
    const items = s.items as Obj[];
    expect(ids(items).slice(0, 3)).toEqual(['kms-main', 'sg-app', 'ecr-repo']);
    expect(items.map((i) => i.direct_dependents)).toEqual([4, 2, 2, 2, 2]);
    expect(items[0]).toEqual({
      id: 'kms-main',
      name: 'prod-main-key',
      arn: 'arn:aws:kms:us-east-1:111111111111:key/1111-2222',
      type: 'KMS_KEY',
      account_id: '111111111111',
      region: 'us-east-1',
      direct_dependents: 4,
    });
  });

  it('leaves out containment and assets with fewer than two dependents', async () => {
    const s = await call(layer, 'shared_dependencies', {});
    // subnet-private contains three assets but containment does not count.
    expect(ids(s.items)).not.toContain('subnet-private');
    expect((s.items as Obj[]).every((i) => (i.direct_dependents as number) >= 2)).toBe(true);
    expect(s.returned).toBe(7);
  });
});

describe('largest_blast_radius', () => {
  it('ranks kms-main, vpc-prod and ecr-repo, as documented', async () => {
    const s = await call(layer, 'largest_blast_radius', { top: 3 });
    expect(s.returned).toBe(3);
    expect(
      (s.items as Obj[]).map((i) => [
        i.id,
        i.transitive_dependents,
        i.accounts_affected,
        i.internet_exposed_dependents,
      ]),
    ).toEqual([
      ['kms-main', 12, 1, 2],
      ['vpc-prod', 9, 1, 2],
      ['ecr-repo', 8, 3, 1],
    ]);
    expect((s.items as Obj[])[2]).toMatchObject({
      name: 'app-images',
      arn: 'arn:aws:ecr:eu-west-1:222222222222:repository/app-images',
      type: 'CONTAINER_REGISTRY',
      account_id: '222222222222',
      region: 'eu-west-1',
    });
  });

  it('agrees with blast_radius on the transitive dependents of the top asset', async () => {
    const s = await call(layer, 'largest_blast_radius', {});
    const top = (s.items as Obj[])[0] as Obj;
    const detail = await call(layer, 'blast_radius', { ref: top.id as string });
    expect((detail.dependency as Obj).transitive_dependents).toBe(top.transitive_dependents);
  });

  it('stops counting when the call is cancelled', () => {
    const count = dependentCounter(ws.get('sample'), AbortSignal.abort(new Error('stop')));
    expect(() => count('kms-main', 10)).toThrow('stop');
    expect(dependentCounter(ws.get('sample'))('kms-main', 10).transitive_dependents).toBe(12);
  });

  it('refuses a top above 100', async () => {
    const e = await callError(layer, 'largest_blast_radius', { top: 101 });
    expect(e.text).toBe('Invalid arguments: top: Input should be less than or equal to 100');
  });
});
