import { describe, expect, it } from 'vitest';
import { CloudAssetSchema } from './asset.js';
import { type ListIssue, parseAssetList, parseEdgeList } from './fast-parse.js';

describe('asset and edge lists', () => {
  it('normalise well-formed assets: defaults filled, provider upper-cased, display_id dropped, extras kept', () => {
    const issues: ListIssue[] = [];
    const [asset] = parseAssetList(
      [
        {
          id: 'a',
          arn: null,
          name: '',
          asset_type: 'EC2',
          provider: 'aws',
          display_id: 'a',
          plugin_field: { x: 1 },
        },
      ],
      issues,
    );
    expect(issues).toEqual([]);
    expect(asset).toEqual({
      id: 'a',
      arn: null,
      name: 'a',
      asset_type: 'EC2',
      provider: 'AWS',
      region: 'global',
      account_id: null,
      tags: {},
      metadata: {},
      collected_at: null,
      is_internet_exposed: false,
      plugin_field: { x: 1 },
    });
  });

  it('accept through the schema what the fast path does not (numeric account ids and tag values)', () => {
    const issues: ListIssue[] = [];
    const [asset] = parseAssetList(
      [
        {
          id: 'a',
          name: 'a',
          asset_type: 'EC2',
          provider: 'GCP',
          account_id: 123,
          tags: { cost: 5, on: true },
        },
      ],
      issues,
    );
    expect(issues).toEqual([]);
    expect(asset).toMatchObject({ account_id: '123', tags: { cost: '5', on: 'true' }, provider: 'GCP' });
  });

  it('report each bad item with its position', () => {
    const issues: ListIssue[] = [];
    parseAssetList(
      [
        { id: 'ok', name: 'n', asset_type: 'EC2', provider: 'aws' },
        { id: 'x', provider: 'oracle' },
      ],
      issues,
    );
    parseEdgeList([{ source_id: 'a', edge_type: 'CONTAINS' }], issues);
    const locs = issues.map((i) => i.path.join('.'));
    expect(locs).toEqual(
      expect.arrayContaining(['assets.1.asset_type', 'assets.1.provider', 'edges.0.target_id']),
    );
  });

  it('normalise edges: type upper-cased, network fields defaulted', () => {
    const issues: ListIssue[] = [];
    const [edge] = parseEdgeList(
      [{ id: 'e', source_id: 'a', target_id: 'b', edge_type: 'invokes', port_range: 443 }],
      issues,
    );
    expect(issues).toEqual([]);
    expect(edge).toEqual({
      id: 'e',
      source_id: 'a',
      target_id: 'b',
      edge_type: 'INVOKES',
      relationship: null,
      properties: {},
      description: null,
      ports: [],
      port_range: '443',
      protocol: null,
      cidr: null,
      direction: 'ingress',
    });
  });
});

describe('the fast path and the schema agree', () => {
  it('on assets the fast path accepts', () => {
    const samples = [
      {
        id: 'a',
        name: 'n',
        asset_type: 'EC2',
        provider: 'azure',
        account_id: 42,
        tags: { n: 1, b: false, s: 'x' },
      },
      {
        id: 'b',
        arn: 'arn:x',
        asset_type: 'S3_BUCKET',
        provider: 'AWS',
        region: null,
        metadata: { k: [1] },
        extra: 1,
      },
    ];
    for (const raw of samples) {
      const issues: ListIssue[] = [];
      const [fast] = parseAssetList([structuredClone(raw)], issues);
      expect(issues).toEqual([]);
      expect(fast).toEqual(CloudAssetSchema.parse(structuredClone(raw)));
    }
  });
});
