/** The relationship linker: identifiers, direction, external accounts, unresolved references. */
import { describe, expect, it } from 'vitest';
import { accountHierarchyEdges, buildAsset, RelationshipLinker, rel } from '../src/index.js';

const A = '111111111111';
const asset = (arn: string, type: string, extra: Partial<Parameters<typeof buildAsset>[0]> = {}) =>
  buildAsset({ arn, asset_type: type, provider: 'AWS', account_id: A, region: 'us-east-1', ...extra });

describe('RelationshipLinker', () => {
  it('resolves ARNs, aliases and short ids, and turns reverse relations around', () => {
    const role = asset(`arn:aws:iam::${A}:role/app`, 'IAM_ROLE', {
      name: 'app',
      aliases: [`arn:aws:iam::${A}:instance-profile/app`],
    });
    const subnet = asset(`arn:aws:ec2:us-east-1:${A}:subnet/subnet-1`, 'SUBNET', {
      metadata: { subnet_id: 'subnet-1' },
    });
    const vm = asset(`arn:aws:ec2:us-east-1:${A}:instance/i-1`, 'EC2', {
      relations: [
        rel(`arn:aws:iam::${A}:instance-profile/app`, 'ASSUMES_ROLE'),
        rel('subnet-1', 'CONTAINS', 'SUBNET_CONTAINS_INSTANCE', { reverse: true }),
        rel('somewhere', 'NOT_AN_EDGE_TYPE'),
      ].filter((r) => r !== null),
    });
    const { edges, unresolved } = new RelationshipLinker([role, subnet, vm]).link();
    expect(edges.map((e) => [e.source_id, e.edge_type, e.target_id])).toEqual([
      [vm.id, 'ASSUMES_ROLE', role.id],
      [subnet.id, 'CONTAINS', vm.id],
    ]);
    expect(edges[1]?.relationship).toBe('SUBNET_CONTAINS_INSTANCE');
    // An unknown edge type is linked as REFERENCES; this one's target does not exist.
    expect(unresolved).toEqual([
      { source: vm.arn, source_name: vm.name, target: 'somewhere', edge_type: 'REFERENCES' },
    ]);
  });

  it('scopes a short name shared by two accounts to the referring asset’s account', () => {
    const sgHere = asset(`arn:aws:ec2:us-east-1:${A}:security-group/sg-1`, 'SECURITY_GROUP', {
      name: 'default',
    });
    const sgThere = buildAsset({
      arn: 'arn:aws:ec2:us-east-1:222222222222:security-group/sg-2',
      name: 'default',
      asset_type: 'SECURITY_GROUP',
      provider: 'AWS',
      account_id: '222222222222',
      region: 'us-east-1',
    });
    const vm = asset(`arn:aws:ec2:us-east-1:${A}:instance/i-1`, 'EC2', {
      relations: [rel('default', 'ATTACHED_TO')].filter((r) => r !== null),
    });
    const { edges } = new RelationshipLinker([sgHere, sgThere, vm]).link();
    expect(edges.map((e) => e.target_id)).toEqual([sgHere.id]);
  });

  it('points references into an unmapped account at one external account placeholder', () => {
    const role = asset(`arn:aws:iam::${A}:role/deploy`, 'IAM_ROLE', {
      relations: [
        rel('arn:aws:iam::999999999999:root', 'IAM_TRUST', 'CROSS_ACCOUNT_TRUST', {
          reverse: true,
          properties: { external_id_required: true },
        }),
        rel('arn:aws:s3:::nothing-here', 'GRANTS_ACCESS'),
        rel('arn:aws:iam::999999999999:role/vendor', 'IAM_TRUST', null, { reverse: true }),
      ].filter((r) => r !== null),
    });
    const { edges, externalAssets, unresolved } = new RelationshipLinker([role]).link();
    expect(externalAssets).toHaveLength(1);
    expect(externalAssets[0]).toMatchObject({
      arn: 'arn:aws:iam::999999999999:root',
      name: 'external account 999999999999',
      asset_type: 'CLOUD_ACCOUNT',
      metadata: { external: true, discovered_via: 'cross-account reference' },
    });
    // Both trusts resolve to the one placeholder, so they make one edge (deduplicated on
    // source, target and type), which keeps the first reference it was made for.
    expect(edges.map((e) => [e.source_id, e.edge_type, e.target_id])).toEqual([
      [externalAssets[0]?.id, 'IAM_TRUST', role.id],
    ]);
    expect(edges[0]?.properties).toMatchObject({
      external_id_required: true,
      external_reference: 'arn:aws:iam::999999999999:root',
    });
    // A bucket ARN names no account: unresolved.
    expect(unresolved.map((u) => u.target)).toEqual(['arn:aws:s3:::nothing-here']);
  });

  it('does not duplicate a seeded edge', () => {
    const a = asset(`arn:aws:ec2:us-east-1:${A}:vpc/vpc-1`, 'VPC');
    const b = asset(`arn:aws:ec2:us-east-1:${A}:subnet/subnet-1`, 'SUBNET', {
      relations: [rel(a.arn, 'CONTAINS', null, { reverse: true })].filter((r) => r !== null),
    });
    const linker = new RelationshipLinker([a, b]);
    linker.seedExisting([
      {
        id: 'x',
        source_id: a.id,
        target_id: b.id,
        edge_type: 'CONTAINS',
        relationship: null,
        properties: {},
        description: null,
        ports: [],
        port_range: null,
        protocol: null,
        cidr: null,
        direction: 'ingress',
      },
    ]);
    expect(linker.link().edges).toEqual([]);
  });
});

describe('account hierarchy', () => {
  it('hangs uncontained resources under their account, marked as hierarchy', () => {
    const account = asset(`arn:aws:iam::${A}:root`, 'CLOUD_ACCOUNT');
    const vpc = asset(`arn:aws:ec2:us-east-1:${A}:vpc/vpc-1`, 'VPC');
    const subnet = asset(`arn:aws:ec2:us-east-1:${A}:subnet/subnet-1`, 'SUBNET');
    const contains = {
      id: 'x',
      source_id: vpc.id,
      target_id: subnet.id,
      edge_type: 'CONTAINS',
      relationship: null,
      properties: {},
      description: null,
      ports: [],
      port_range: null,
      protocol: null,
      cidr: null,
      direction: 'ingress',
    };
    const edges = accountHierarchyEdges([account, vpc, subnet], [contains]);
    expect(edges.map((e) => [e.source_id, e.target_id, e.properties.hierarchy])).toEqual([
      [account.id, vpc.id, true],
    ]);
  });
});
