import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layer, ToolResult } from '@cloudg/core';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { ontologyLayer } from './ontology-support.js';
import { call, callError } from './support.js';

/** The ontology tools reproduce the reference's examples on the bundled sample estate. */

type Obj = Record<string, unknown>;
let layer: Layer<Workspace>;
let ws: Workspace;
let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'cloudg-onto-'));
  ({ layer, ws } = await ontologyLayer({ outputDir: out }));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

const links = (r: ToolResult) =>
  r.content.flatMap((c) => (c.type === 'resource_link' ? [[c.uri, c.name, c.mimeType]] : []));

describe('ontology_stats', () => {
  it('builds the ontology on first use, reports progress, then reads the cache', async () => {
    const progress: [number, number | undefined, string | undefined][] = [];
    const first = await layer.callTool(
      'ontology_stats',
      {},
      {
        onProgress: (p: number, t: number | undefined, m: string | undefined) =>
          void progress.push([p, t, m]),
      },
    );
    const s = first.structured as Obj;
    expect(s.dataset).toBe('sample');
    expect(s.built_now).toBe(true);
    // The instance part (everything but the schema) is the reference's 548 triples; the schema
    // holds one class per catalogued asset type, so the total depends on that catalogue.
    expect(s.classes_used).toBe(30);
    expect(s.individuals).toBe(78);
    const counts = s.relation_type_counts as Obj;
    expect(counts).toMatchObject({
      hasRiskScore: 12,
      hasName: 57,
      hasAccountId: 44,
      isInternetExposed: 44,
      INTERNET_REACHABLE: 7,
    });
    expect(Object.keys(counts)).toHaveLength(41);
    expect(s.relation_group_counts).toEqual({
      NETWORK: 16,
      CONTAINMENT: 15,
      IAM: 12,
      DATA_FLOW: 2,
      SECURITY: 38,
      COMPUTE: 11,
      GOVERNANCE: 25,
    });
    expect(links(first)).toEqual([['cloudg://ontology/turtle', 'ontology (turtle)', 'text/turtle']]);
    expect(progress[0]).toEqual([0, 1, 'building ontology for 44 assets']);
    expect(progress.at(-1)).toEqual([1, 1, 'ontology built']);

    const second = await call(layer, 'ontology_stats');
    expect(second.built_now).toBe(false);
    expect(second.total_triples).toBe(s.total_triples);
    expect(ws.get('sample').isCached('ontology')).toBe(true);
  });

  it('is rebuilt after the dataset changes', async () => {
    await call(layer, 'ontology_stats');
    ws.get().touch();
    expect((await call(layer, 'ontology_stats')).built_now).toBe(true);
  });
});

describe('ontology_neighbourhood', () => {
  it('walks orders-db one hop, outgoing first, and stops at the limit', async () => {
    const r = await layer.callTool('ontology_neighbourhood', { ref: 'orders-db', limit: 6 });
    const s = r.structured as Obj;
    expect(s.asset).toEqual({ id: 'orders-db', name: 'orders-db', type: 'RDS_INSTANCE' });
    expect(s.predicates).toEqual({
      TAGGED_WITH: 2,
      PROTECTED_BY_SG: 1,
      ENCRYPTED_BY_KMS: 1,
      SUBNET_CONTAINS_INSTANCE: 1,
      POLICY_ALLOWS_ACTION: 1,
    });
    expect((s.triples as Obj[]).slice(0, 2)).toEqual([
      {
        subject: 'orders-db',
        predicate: 'TAGGED_WITH',
        object: 'cmr:tag_env_prod',
        depth: 1,
        subject_id: 'cmr:orders-db',
        object_id: 'cmr:tag_env_prod',
      },
      {
        subject: 'orders-db',
        predicate: 'TAGGED_WITH',
        object: 'cmr:tag_data_pii',
        depth: 1,
        subject_id: 'cmr:orders-db',
        object_id: 'cmr:tag_data_pii',
      },
    ]);
    expect([s.returned, s.truncated]).toEqual([6, true]);
    expect(links(r)).toEqual([['cloudg://assets/orders-db', 'orders-db', 'application/json']]);
  });

  it('without a limit also finds the backup finding named by ARN and the two frameworks', async () => {
    const s = await call(layer, 'ontology_neighbourhood', { ref: 'orders-db' });
    const preds = s.predicates as Obj;
    expect(preds.FINDING_AFFECTS).toBe(1);
    expect(preds.COMPLIANCE_GOVERNS).toBe(2);
    const finding = (s.triples as Obj[]).find((t) => t.predicate === 'FINDING_AFFECTS');
    expect(finding).toMatchObject({
      subject: 'RDS backup retention below 7 days',
      subject_id: 'cmr:finding_f-db-backup',
    });
    expect(s.truncated).toBe(false);
  });

  it('walks further with hops and refuses an unknown asset', async () => {
    const one = await call(layer, 'ontology_neighbourhood', { ref: 'orders-db', hops: 1, limit: 500 });
    const two = await call(layer, 'ontology_neighbourhood', { ref: 'orders-db', hops: 2, limit: 500 });
    expect(two.returned as number).toBeGreaterThan(one.returned as number);
    expect((two.triples as Obj[]).some((t) => t.depth === 2)).toBe(true);
    const err = await callError(layer, 'ontology_neighbourhood', { ref: 'no-such-asset' });
    expect(err.code).toBe(-32602);
  });
});

describe('relation_groups', () => {
  it('gives every group with its total and the relation types present', async () => {
    const s = await call(layer, 'relation_groups');
    const groups = s.groups as Record<string, { total: number; types: Obj }>;
    expect(groups.NETWORK).toEqual({
      total: 16,
      types: {
        INGRESS_ALLOWED: 4,
        ONLY_HTTP: 1,
        ONLY_HTTPS: 1,
        ONLY_SSH: 1,
        ONLY_RDP: 1,
        PORT_RESTRICTED: 1,
        INTERNET_REACHABLE: 7,
      },
    });
    expect(groups.CONTAINMENT).toEqual({
      total: 15,
      types: {
        CONTAINS: 3,
        VPC_CONTAINS_SUBNET: 2,
        SUBNET_CONTAINS_INSTANCE: 5,
        ORG_CONTAINS_ACCOUNT: 2,
        LB_TARGETS_INSTANCE: 3,
      },
    });
    expect(groups.IAM).toEqual({
      total: 12,
      types: { ROLE_ASSUMES_ROLE: 2, POLICY_ALLOWS_ACTION: 8, CROSS_ACCOUNT_TRUST: 2 },
    });
    expect(groups.DATA_FLOW).toEqual({ total: 2, types: { READS_FROM: 1, LOGS_TO: 1 } });
    expect(groups.SECURITY).toEqual({
      total: 38,
      types: {
        PROTECTED_BY_SG: 6,
        PROTECTED_BY_WAF: 1,
        ENCRYPTED_BY_KMS: 4,
        FINDING_AFFECTS: 12,
        COMPLIANCE_GOVERNS: 15,
      },
    });
    expect(groups.COMPUTE).toEqual({
      total: 11,
      types: { RUNS_ON: 5, TRIGGERED_BY: 1, INVOKES: 1, LOAD_BALANCED_BY: 3, DEPENDS_ON: 1 },
    });
    expect(groups.GOVERNANCE).toEqual({
      total: 25,
      types: { TAGGED_WITH: 17, OWNED_BY: 7, MONITORED_BY: 1 },
    });
  });

  it('pages one group (any case), relation type by relation type', async () => {
    const s = await call(layer, 'relation_groups', { group: 'iam', limit: 3 });
    expect(s.group).toBe('IAM');
    expect((s.relation_types as string[]).slice(0, 3)).toEqual([
      'ROLE_ASSUMES_ROLE',
      'USER_HAS_POLICY',
      'ROLE_HAS_POLICY',
    ]);
    expect((s.relation_types as string[]).length).toBe(10);
    expect([s.total, s.offset, s.returned, s.truncated]).toEqual([12, 0, 3, true]);
    expect(s.items).toEqual([
      {
        relation: 'ROLE_ASSUMES_ROLE',
        src: 'cmr:app-role',
        tgt: 'cmr:deploy-role',
        srcName: 'app-role',
        tgtName: 'deploy-role',
      },
      {
        relation: 'ROLE_ASSUMES_ROLE',
        src: 'cmr:acct-vendor',
        tgt: 'cmr:deploy-role',
        srcName: 'vendor-co',
        tgtName: 'deploy-role',
      },
      {
        relation: 'POLICY_ALLOWS_ACTION',
        src: 'cmr:app-role',
        tgt: 'cmr:orders-db',
        srcName: 'app-role',
        tgtName: 'orders-db',
      },
    ]);
    const next = await call(layer, 'relation_groups', { group: 'IAM', limit: 100, cursor: s.next_cursor });
    expect([next.offset, next.returned, next.truncated]).toEqual([3, 9, false]);
  });

  it('refuses an unknown group with the valid values', async () => {
    const err = await callError(layer, 'relation_groups', { group: 'FINANCE' });
    expect(err.code).toBe(-32602);
    expect(err.text).toMatch(/^Unknown relation group\./);
    expect(err.text).toContain(
      'Valid values: NETWORK, CONTAINMENT, IAM, DATA_FLOW, SECURITY, COMPUTE, GOVERNANCE',
    );
    expect((err.data as Obj).value).toBe('FINANCE');
  });
});

describe('rag_chunks', () => {
  it("gives orders-db's entity chunk, counting the finding that names it by ARN", async () => {
    const s = await call(layer, 'rag_chunks', { ref: 'orders-db' });
    expect([s.chunk_type, s.total, s.returned, s.next_cursor, s.truncated]).toEqual([
      'entity',
      1,
      1,
      null,
      false,
    ]);
    const [chunk] = s.items as Obj[];
    expect(chunk?.chunk_id).toBe('entity::orders-db');
    expect(chunk?.content).toMatch(
      /^Resource: orders-db\nType: RDS_INSTANCE\nProvider: AWS\nRegion: us-east-1\nARN: arn:aws:rds:us-east-1:111111111111:db:orders-db\nAccount: 111111111111\nTags: \{"env": "prod", "data": "pii"\}\n\nRelations \(4\):\n {2}→ PROTECTED_BY_SG: sg-db\n {2}→ ENCRYPTED_BY_KMS: prod-main-key\n/,
    );
    expect(chunk?.content).toContain('Findings (1):\n  [MEDIUM] RDS backup retention below 7 days');
    expect(chunk?.metadata).toEqual({
      asset_type: 'RDS_INSTANCE',
      provider: 'AWS',
      region: 'us-east-1',
      account_id: '111111111111',
      is_internet_exposed: false,
      relation_types: [
        'ENCRYPTED_BY_KMS',
        'POLICY_ALLOWS_ACTION',
        'PROTECTED_BY_SG',
        'SUBNET_CONTAINS_INSTANCE',
      ],
      severity_max: 'MEDIUM',
      compliance_frameworks: ['CIS-AWS', 'NIST-800-53'],
      neighbour_count: 4,
      finding_count: 1,
      arn: 'arn:aws:rds:us-east-1:111111111111:db:orders-db',
    });
  });

  it('filters entity chunks by worst severity, in dataset order', async () => {
    const s = await call(layer, 'rag_chunks', { min_severity: 'CRITICAL', limit: 5 });
    expect((s.items as Obj[]).map((c) => c.chunk_id)).toEqual(['entity::sg-admin', 'entity::az-nsg']);
    const sg = (s.items as Obj[])[0]?.metadata as Obj;
    expect(sg.relation_types).toEqual([
      'INGRESS_ALLOWED',
      'INTERNET_REACHABLE',
      'ONLY_SSH',
      'PROTECTED_BY_SG',
    ]);
    expect(sg.neighbour_count).toBe(4);
    const err = await callError(layer, 'rag_chunks', { min_severity: 'SEVERE' });
    expect(err.text).toMatch(/^Unknown severity\./);
  });

  it('gives community chunks with a stable numbering and the documented risk score', async () => {
    const first = await call(layer, 'rag_chunks', { chunk_type: 'community', limit: 1 });
    expect(first.truncated).toBe(true);
    const all = await call(layer, 'rag_chunks', { chunk_type: 'community', limit: 100 });
    const chunks = all.items as Obj[];
    expect(chunks.length).toBe(all.total);
    for (const [i, c] of chunks.entries()) {
      const m = c.metadata as Obj;
      expect(c.chunk_id).toBe(`community::${i + 1}`);
      const expected = Math.min(
        10,
        0.3 * (m.member_count as number) +
          0.5 * (m.finding_count as number) +
          2 * (m.internet_exposed_count as number),
      );
      expect(m.risk_score).toBeCloseTo(expected, 1);
      expect(c.content).toMatch(new RegExp(`^Community ${i + 1} \\(${m.member_count} resources\\):\\n  • `));
    }
    // Largest first; every asset in at most one community.
    const sizes = chunks.map((c) => (c.metadata as Obj).member_count as number);
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
    const again = await call(layer, 'rag_chunks', { chunk_type: 'community', limit: 100 });
    expect(again.items).toEqual(all.items);
  });

  it('gives one relation-group chunk per group, in the order the groups first appear', async () => {
    const s = await call(layer, 'rag_chunks', { chunk_type: 'relation_group', limit: 1 });
    expect([s.total, s.returned, s.truncated]).toEqual([7, 1, true]);
    const [chunk] = s.items as Obj[];
    expect(chunk?.chunk_id).toBe('relation_group::CONTAINMENT');
    expect(chunk?.content).toMatch(
      /^Relation Group: CONTAINMENT\nTotal relations: 15\n\nRelation type distribution:\n {2}SUBNET_CONTAINS_INSTANCE: 5\n {2}CONTAINS: 3\n {2}LB_TARGETS_INSTANCE: 3\n {2}ORG_CONTAINS_ACCOUNT: 2\n {2}VPC_CONTAINS_SUBNET: 2\n\nTriples:\n {2}sample-org → CONTAINS → Workloads\n {2}Workloads → ORG_CONTAINS_ACCOUNT → prod\n/,
    );
    expect(chunk?.metadata).toEqual({
      relation_group: 'CONTAINMENT',
      total_relations: 15,
      relation_type_counts: {
        CONTAINS: 3,
        ORG_CONTAINS_ACCOUNT: 2,
        VPC_CONTAINS_SUBNET: 2,
        SUBNET_CONTAINS_INSTANCE: 5,
        LB_TARGETS_INSTANCE: 3,
      },
      unique_subjects: 9,
      unique_objects: 13,
    });
  });

  it('matches a case-insensitive substring of the content', async () => {
    const s = await call(layer, 'rag_chunks', { query: 'internet exposed', limit: 100 });
    expect((s.items as Obj[]).every((c) => (c.content as string).includes('INTERNET EXPOSED'))).toBe(true);
    expect(s.total as number).toBeGreaterThan(0);
  });
});

describe('export_ontology and the ontology resources', () => {
  it('writes Turtle that n3 parses back to the triple count ontology_stats reports', async () => {
    const stats = await call(layer, 'ontology_stats');
    const r = await layer.callTool('export_ontology', { format: 'turtle', filename: 'estate' });
    const s = r.structured as Obj;
    expect(s.path).toBe(join(out, 'estate.ttl'));
    expect([s.format, s.triples]).toEqual(['turtle', stats.total_triples]);
    const text = await readFile(join(out, 'estate.ttl'), 'utf8');
    expect(s.bytes).toBe(Buffer.byteLength(text));
    expect(text.startsWith('@prefix cm: <https://cloudg.io/ontology#>.')).toBe(true);
    expect(new Parser().parse(text)).toHaveLength(stats.total_triples as number);
    expect(links(r)).toEqual([['cloudg://ontology/turtle', 'ontology (turtle)', 'text/turtle']]);
  });

  it('writes N-Triples, JSON-LD and RDF/XML with their extensions', async () => {
    const stats = await call(layer, 'ontology_stats');
    const nt = await call(layer, 'export_ontology', { format: 'nt' });
    expect(nt.path).toBe(join(out, 'ontology.nt'));
    const lines = (await readFile(join(out, 'ontology.nt'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(stats.total_triples as number);
    const jsonld = await call(layer, 'export_ontology', { format: 'json-ld', filename: 'estate.jsonld' });
    expect(jsonld.path).toBe(join(out, 'estate.jsonld'));
    expect(Array.isArray(JSON.parse(await readFile(join(out, 'estate.jsonld'), 'utf8')))).toBe(true);
    const xml = await call(layer, 'export_ontology', { format: 'xml' });
    expect(await readFile(xml.path as string, 'utf8')).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<rdf:RDF/,
    );
  });

  it('refuses a file name with a directory in it', async () => {
    const err = await callError(layer, 'export_ontology', { filename: '../escape' });
    expect(err.code).toBe(-32602);
    expect(err.text).toContain('filename');
  });

  it('serves every format as a resource with its own MIME type, and completes the format', async () => {
    const [turtle] = await layer.readResource('cloudg://ontology/turtle');
    expect(turtle?.mimeType).toBe('text/turtle');
    expect((turtle as { text: string }).text).toContain('cmr:orders-db');
    for (const [format, mime] of [
      ['json-ld', 'application/ld+json'],
      ['xml', 'application/rdf+xml'],
      ['nt', 'application/n-triples'],
    ]) {
      const [item] = await layer.readResource(`cloudg://ontology/${format}`);
      expect(item?.mimeType).toBe(mime);
    }
    await expect(layer.readResource('cloudg://ontology/yaml')).rejects.toThrow(/Unknown ontology format/);
    const completion = await layer.complete(
      { type: 'ref/resource', uri: 'cloudg://ontology/{format}' },
      { name: 'format', value: 'j' },
    );
    expect(completion.values).toEqual(['json-ld']);
  });
});

describe('references the ontology hands out', () => {
  it('takes an individual (compact or full IRI) as ref', async () => {
    for (const ref of ['cmr:orders-db', 'https://cloudg.io/resource/orders-db']) {
      const s = await call(layer, 'ontology_neighbourhood', { ref, limit: 1 });
      expect((s.asset as Obj).id).toBe('orders-db');
      const chunk = await call(layer, 'rag_chunks', { ref });
      expect((chunk.items as Obj[])[0]?.chunk_id).toBe('entity::orders-db');
    }
  });
});
