import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/dataset/dataset.js';
import { CloudAssetSchema } from '../../src/model/asset.js';
import { NetworkEdgeSchema } from '../../src/model/edge.js';
import { FindingSchema } from '../../src/model/finding.js';
import { buildOntology } from '../../src/ontology/build.js';
import { compactIri } from '../../src/ontology/iri.js';
import { relationGroupOf } from '../../src/ontology/vocabulary.js';

/**
 * The reference's CloudOntology example (four assets, two edges, one scanner finding naming the
 * database by ARN): the same individuals, classes, relation groups and relations.
 */
const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
const KEY_ARN = `arn:aws:kms:${REGION}:${ACCOUNT}:key/1111aaaa-22bb-33cc-44dd-555555eeeeee`;

function asset(id: string, type: string, arn: string, extra: Record<string, unknown> = {}) {
  return CloudAssetSchema.parse({
    id,
    name: id,
    asset_type: type,
    provider: 'AWS',
    region: REGION,
    account_id: ACCOUNT,
    arn,
    ...extra,
  });
}

function demo(): Dataset {
  return new Dataset({
    name: 'demo',
    kind: 'inventory',
    source: 'inline',
    assets: [
      asset('sg-web', 'SECURITY_GROUP', `arn:aws:ec2:${REGION}:${ACCOUNT}:security-group/sg-web`),
      asset('web-1', 'EC2', `arn:aws:ec2:${REGION}:${ACCOUNT}:instance/i-0web1`, {
        tags: { owner: 'payments' },
      }),
      asset('orders-key', 'KMS_KEY', KEY_ARN),
      asset('orders-db', 'RDS_INSTANCE', `arn:aws:rds:${REGION}:${ACCOUNT}:db:orders-db`, {
        metadata: { storage_encrypted: true, kms_key_id: KEY_ARN },
      }),
    ],
    edges: [
      NetworkEdgeSchema.parse({
        source_id: '0.0.0.0/0',
        target_id: 'sg-web',
        edge_type: 'SECURITY_GROUP_RULE',
        port_range: '22',
        protocol: 'TCP',
        cidr: '0.0.0.0/0',
        direction: 'ingress',
      }),
      NetworkEdgeSchema.parse({ source_id: 'web-1', target_id: 'sg-web', edge_type: 'ATTACHED_TO' }),
    ],
    findings: [
      FindingSchema.parse({
        resource_id: `arn:aws:rds:${REGION}:${ACCOUNT}:db:orders-db`,
        severity: 'HIGH',
        title: 'RDS instance has no deletion protection',
        source_tool: 'prowler',
        compliance_frameworks: ['CIS'],
      }),
    ],
  });
}

describe('buildOntology', () => {
  it("reproduces the reference's small example", async () => {
    const ontology = await buildOntology(demo());
    expect(ontology.counts.classesUsed).toBe(9);
    expect(ontology.counts.individuals).toBe(9);
    // The reference's 689 triples less its 636 of schema.
    expect(ontology.size - ontology.counts.schemaTriples).toBe(53);
    const groups: Record<string, number> = {};
    for (const t of ontology.relations) {
      const g = relationGroupOf(t.relation) as string;
      groups[g] = (groups[g] ?? 0) + 1;
    }
    expect(groups).toEqual({ GOVERNANCE: 2, NETWORK: 3, SECURITY: 4 });
    const named = ontology.relations
      .filter((t) => ontology.nameOf(t.subject) !== undefined)
      .map(
        (t) =>
          `${ontology.nameOf(t.subject)} ${t.relation} ${ontology.nameOf(t.object) ?? compactIri(t.object)}`,
      )
      .sort();
    expect(named).toEqual([
      '0.0.0.0/0 INGRESS_ALLOWED sg-web',
      '0.0.0.0/0 INTERNET_REACHABLE sg-web',
      '0.0.0.0/0 ONLY_SSH sg-web',
      'RDS instance has no deletion protection FINDING_AFFECTS orders-db',
      'orders-db ENCRYPTED_BY_KMS orders-key',
      'web-1 OWNED_BY cmr:tag_payments',
      'web-1 PROTECTED_BY_SG sg-web',
      'web-1 TAGGED_WITH cmr:tag_owner_payments',
    ]);
  });

  it('points an encrypted asset at the raw key reference when the key was not collected', async () => {
    const ds = demo();
    ds.assets = ds.assets.filter((a) => a.id !== 'orders-key');
    const ontology = await buildOntology(ds);
    expect(ontology.relations).toContainEqual({
      subject: 'https://cloudg.io/resource/orders-db',
      relation: 'ENCRYPTED_BY_KMS',
      object: `https://cloudg.io/resource/${KEY_ARN}`,
    });
  });

  it('reads CIDR, port ranges, egress and NACL rules as documented', async () => {
    const ds = demo();
    ds.edges = [
      { source_id: '10.0.0.0/8', target_id: 'sg-web', port_range: '0-65535', cidr: '10.0.0.0/8' },
      { source_id: 'sg-web', target_id: '::/0', port_range: '8000-8100', direction: 'egress' },
      { source_id: 'Internet', target_id: 'sg-web', port_range: '443,3380-3390' },
      { source_id: '0.0.0.0/0', target_id: 'sg-web', port_range: '2200-2300', cidr: '0.0.0.0/0' },
    ].map((e) => NetworkEdgeSchema.parse({ edge_type: 'SECURITY_GROUP_RULE', protocol: 'TCP', ...e }));
    ds.edges.push(
      NetworkEdgeSchema.parse({
        source_id: 'x',
        target_id: 'sg-web',
        edge_type: 'NACL_RULE',
        port_range: '22',
      }),
    );
    ds.findings = [];
    const rels = (await buildOntology(ds)).relations.filter(
      (t) => t.relation !== 'TAGGED_WITH' && t.relation !== 'OWNED_BY',
    );
    const by = (src: string) => rels.filter((t) => t.subject.endsWith(`/${src}`)).map((t) => t.relation);
    expect(by('10.0.0.0/8')).toEqual(['INGRESS_ALLOWED', 'CIDR_RESTRICTED', 'ALL_TRAFFIC']);
    expect(rels.filter((t) => t.subject.endsWith('/sg-web')).map((t) => t.relation)).toEqual([
      'EGRESS_ALLOWED',
      'INTERNET_REACHABLE',
      'PORT_RESTRICTED',
    ]);
    expect(by('Internet')).toEqual(['INGRESS_ALLOWED', 'INTERNET_REACHABLE', 'ONLY_HTTPS', 'ONLY_RDP']);
    expect(by('0.0.0.0/0')).toEqual(['INGRESS_ALLOWED', 'INTERNET_REACHABLE', 'PORT_RESTRICTED']);
    expect(by('x')).toEqual([]);
  });
});
