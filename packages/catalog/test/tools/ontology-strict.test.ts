import { describe, expect, it } from 'vitest';
import { profileLayer } from '../privacy-profiles/support.js';

/**
 * Under `strict` the ontology tools a caller can see show pseudonyms only: names, compact URIs
 * holding asset ids, ARNs and account ids in neighbourhoods, relation pages and RAG chunks are
 * transformed by the policy like any result. sparql_query and the ontology resources, whose
 * content the transforms cannot read by key, are restricted and not listed.
 */
describe('ontology tools under strict', () => {
  const REAL = [
    'orders-db',
    'sg-db',
    'prod-main-key',
    'kms-main',
    'app-role',
    'subnet-private',
    '111111111111',
  ];

  it('hides sparql_query and the ontology resources', async () => {
    const { layer } = await profileLayer('strict');
    await expect(layer.callTool('sparql_query', { query: 'ASK { ?s ?p ?o }' })).rejects.toThrow(
      /Unknown tool/,
    );
    const names = layer.toolsWire().map((t) => t.name);
    expect(names).toContain('ontology_neighbourhood');
    expect(names).not.toContain('sparql_query');
    await expect(layer.readResource('cloudg://ontology/turtle')).rejects.toThrow();
  });

  it('pseudonymises the neighbourhood of orders-db, its compact URIs included', async () => {
    const { layer } = await profileLayer('strict');
    const pseudonym = await layer.callTool('find_assets', { query: 'orders-db' });
    const ref = ((pseudonym.structured as { items: { id: string }[] }).items[0] as { id: string }).id;
    const result = await layer.callTool('ontology_neighbourhood', { ref, limit: 50 });
    expect(result.isError).toBe(false);
    const text = JSON.stringify(result.structured);
    expect(text).toContain('PROTECTED_BY_SG');
    for (const real of REAL) expect(text, real).not.toContain(real);
  });

  it('pseudonymises relation pages and RAG chunks', async () => {
    const { layer } = await profileLayer('strict');
    const page = await layer.callTool('relation_groups', { group: 'SECURITY', limit: 100 });
    const chunks = await layer.callTool('rag_chunks', { limit: 100 });
    for (const result of [page, chunks]) {
      expect(result.isError).toBe(false);
      const text = JSON.stringify(result.structured);
      for (const real of REAL) expect(text, real).not.toContain(real);
    }
  });
});
