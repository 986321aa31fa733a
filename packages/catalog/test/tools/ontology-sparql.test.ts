import type { Layer } from '@cloudg/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { SparqlEngine, sparqlEngine, useSparqlEngine } from '../../src/ontology/sparql/engine.js';
import { ontologyLayer } from './ontology-support.js';
import { call, callError } from './support.js';

/** sparql_query: the reference's examples, every query form, every rejected form and the time limit. */

type Obj = Record<string, unknown>;
let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await ontologyLayer());
});
afterAll(async () => {
  await useSparqlEngine(new SparqlEngine());
});

describe('sparql_query results', () => {
  it('SELECT: rows keyed by variable, compact URIs, variable kinds', async () => {
    const s = await call(layer, 'sparql_query', {
      query: 'SELECT ?r ?name WHERE { ?s cmp:INTERNET_REACHABLE ?r . ?r cmp:hasName ?name } ORDER BY ?name',
      limit: 20,
    });
    expect(s.query_type).toBe('SelectQuery');
    expect((s.rows as Obj[]).slice(0, 3)).toEqual([
      { r: 'cmr:az-nsg', name: 'jump-nsg' },
      { r: 'cmr:logs-bucket', name: 'prod-logs' },
      { r: 'cmr:api-gw', name: 'public-api' },
    ]);
    expect([s.returned, s.truncated]).toEqual([7, false]);
    expect(s.variable_kinds).toEqual({ r: 'uri', name: 'literal' });
    expect(s.hint).toBeUndefined();
  });

  it('SELECT with compact_uris false gives full IRIs; unbound variables are null; numbers are strings', async () => {
    const full = await call(layer, 'sparql_query', {
      query: 'SELECT ?r WHERE { ?r cmp:hasName "web-1" }',
      compact_uris: false,
    });
    expect(full.rows).toEqual([{ r: 'https://cloudg.io/resource/web-1' }]);
    const optional = await call(layer, 'sparql_query', {
      query:
        'SELECT ?f ?score ?missing WHERE { ?f cmp:hasRiskScore ?score OPTIONAL { ?f cmp:hasARN ?missing } } LIMIT 1',
    });
    expect(optional.rows).toEqual([
      { f: expect.stringMatching(/^cmr:finding_/), score: expect.any(String), missing: null },
    ]);
    const count = await call(layer, 'sparql_query', {
      query: 'SELECT (COUNT(?db) AS ?n) WHERE { ?db a cm:RelationalDatabase }',
    });
    expect(count.rows).toEqual([{ n: '1' }]);
  });

  it('ASK: answer and empty rows', async () => {
    const s = await call(layer, 'sparql_query', { query: 'ASK { ?s a cm:RelationalDatabase }', limit: 20 });
    expect(s).toEqual({
      dataset: 'sample',
      query_type: 'AskQuery',
      answer: true,
      rows: [],
      returned: 0,
      truncated: false,
    });
  });

  it('CONSTRUCT: subject, predicate, object rows', async () => {
    const s = await call(layer, 'sparql_query', {
      query: 'CONSTRUCT { ?s cmp:hasName ?n } WHERE { ?s cmp:hasName ?n } LIMIT 2',
      limit: 20,
    });
    expect(s.query_type).toBe('ConstructQuery');
    expect(s.returned).toBe(2);
    for (const row of s.rows as Obj[]) expect(row.predicate).toBe('cmp:hasName');
    expect(s.variable_kinds).toEqual({ subject: 'uri', predicate: 'uri', object: 'term' });
  });

  it('DESCRIBE: the eleven triples about orders-db', async () => {
    const s = await call(layer, 'sparql_query', { query: 'DESCRIBE cmr:orders-db', limit: 20 });
    expect(s.query_type).toBe('DescribeQuery');
    expect(s.returned).toBe(11);
    const rows = s.rows as Obj[];
    expect(rows.every((r) => r.subject === 'cmr:orders-db')).toBe(true);
    expect(rows).toContainEqual({
      subject: 'cmr:orders-db',
      predicate: 'rdf:type',
      object: 'cm:RelationalDatabase',
    });
    expect(rows).toContainEqual({ subject: 'cmr:orders-db', predicate: 'cmp:hasProvider', object: 'AWS' });
    expect(rows).toContainEqual({
      subject: 'cmr:orders-db',
      predicate: 'cmp:hasARN',
      object: 'arn:aws:rds:us-east-1:111111111111:db:orders-db',
    });
  });

  it('caps rows at limit with truncated and the LIMIT / OFFSET hint', async () => {
    const s = await call(layer, 'sparql_query', { query: 'SELECT ?s WHERE { ?s ?p ?o }', limit: 2 });
    expect([s.returned, s.truncated]).toEqual([2, true]);
    expect(s.variable_kinds).toEqual({ s: 'uri' });
    expect(s.hint).toBe('More rows exist: add LIMIT / OFFSET to the query or raise limit.');
    // A pattern that multiplies out (1,103^3 combinations) still answers at once: the cap is the LIMIT.
    const big = await call(layer, 'sparql_query', {
      query: 'SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }',
      limit: 5,
    });
    expect([big.returned, big.truncated]).toEqual([5, true]);
  });
});

describe('sparql_query rejections', () => {
  const rejected = async (query: string) => {
    const err = await callError(layer, 'sparql_query', { query });
    expect(err.code).toBe(-32602);
    return err.text;
  };
  const UPDATE =
    'Only read-only queries are allowed (SELECT, ASK, CONSTRUCT, DESCRIBE); SPARQL UPDATE is rejected.';

  it('rejects updates, also behind comments, strings and prologues', async () => {
    expect(await rejected("INSERT DATA { cmr:x cmp:hasName 'x' }")).toBe(UPDATE);
    expect(await rejected('# SELECT ?s WHERE { ?s ?p ?o }\nDELETE WHERE { ?s ?p ?o }')).toBe(UPDATE);
    expect(await rejected('PREFIX e: <http://example.org/#SELECT> CLEAR ALL')).toBe(UPDATE);
    expect(await rejected("# 'SELECT\n  drop all")).toBe(UPDATE);
    // Not at the start: the pre-scan lets it pass, the parser sees an update and it is refused.
    expect(await rejected('; INSERT DATA { cmr:x cmp:hasName "x" }')).toMatch(/^SPARQL parse error/);
  });

  it('rejects FROM and FROM NAMED after parsing', async () => {
    const FROM =
      "FROM / FROM NAMED clauses are not allowed (they would load external data). Query the dataset's graph directly.";
    expect(await rejected('SELECT ?s FROM <http://evil.example/data.ttl> WHERE { ?s ?p ?o }')).toBe(FROM);
    expect(
      await rejected('SELECT ?s FROM NAMED <http://evil.example/g> WHERE { GRAPH ?g { ?s ?p ?o } }'),
    ).toBe(FROM);
  });

  it('rejects SERVICE anywhere in the query, EXISTS filters included', async () => {
    const SERVICE = 'SERVICE (federated queries to remote endpoints) is not allowed.';
    expect(await rejected('SELECT ?s WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }')).toBe(
      SERVICE,
    );
    expect(
      await rejected(
        'ASK { ?s ?p ?o FILTER EXISTS { SERVICE SILENT <http://evil.example/sparql> { ?s ?p ?o } } }',
      ),
    ).toBe(SERVICE);
  });

  it('reports a parse error with its position and the predefined prefixes, never the query', async () => {
    const text = await rejected('SELEKT nonsense');
    expect(text).toMatch(
      /^SPARQL parse error at line 1, column 1: expected .*SELECT|^SPARQL parse error at line 1/,
    );
    expect(text).toContain(
      'Only SELECT / ASK / CONSTRUCT / DESCRIBE are allowed; prefixes cm:, cmr:, cmp:, rdf:, rdfs:, owl:, xsd: are predefined.',
    );
    expect(text).not.toContain('nonsense');
  });
});

describe('the query time limit', () => {
  it('stops a query that would run for long, and the next query is answered', async () => {
    await useSparqlEngine(new SparqlEngine({ timeLimitMs: 1_500 }));
    const endless = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }';
    const started = Date.now();
    const result = await layer.callTool('sparql_query', { query: endless });
    expect(result.isError).toBe(true);
    expect(result.meta['cloudg/error_code']).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(30_000);
    const after = await call(layer, 'sparql_query', {
      query: 'ASK { cmr:orders-db a cm:RelationalDatabase }',
    });
    expect(after.answer).toBe(true);
  }, 60_000);

  it('stops the query when the call is cancelled', async () => {
    await useSparqlEngine(new SparqlEngine());
    const controller = new AbortController();
    const endless = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }';
    const pending = layer.callTool('sparql_query', { query: endless }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 1_000);
    await pending.then(
      (r) => expect(r.isError).toBe(true),
      (e) => expect(e).toBeDefined(),
    );
    const after = await call(layer, 'sparql_query', { query: 'SELECT ?r WHERE { ?r cmp:hasName "web-1" }' });
    expect(after.rows).toEqual([{ r: 'cmr:web-1' }]);
    expect(sparqlEngine().timeLimitMs).toBe(60_000);
  }, 60_000);
});
